// The add-a-domain schema: the same zod schema validates POST /api/domains and the dashboard's form.
// The name comes out as DNS writes it (domains.models.ts: normalizeDomainName); a name no one can
// own answers 400 domain.invalid. Messages are i18n keys, translated where they are shown.
import { z } from "zod";
import { DOMAIN_INPUT_MAX_LENGTH } from "./domains.constants";
import { normalizeDomainName } from "./domains.models";

const INVALID_NAME = { message: "domains.validation.nameInvalid", params: { appErrorCode: "domain.invalid" } };

export const createDomainSchema = z.object({
  name: z.string({ error: "domains.validation.nameRequired" }).transform((typed, context) => {
    const name = typed.length <= DOMAIN_INPUT_MAX_LENGTH ? normalizeDomainName(typed) : null;
    if (name === null) {
      context.addIssue({ code: "custom", ...INVALID_NAME });
      return z.NEVER;
    }
    return name;
  }),
});

export type CreateDomainInput = z.infer<typeof createDomainSchema>;

/** `GET /api/domains/route?to=`: any text; what is no address answers 400 domain.invalid_address (modules/inbound/route-preview.ts). */
export const domainRouteQuerySchema = z.object({ to: z.string().default("") });
