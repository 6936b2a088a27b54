// The address form's schema: the API's (email-callbacks.schemas.ts), plus what the form knows of the
// domains offered — the domain must be one of them, and a pattern or catch-all is refused on an
// operator domain with the API's own words (apiErrors.email_callback.invalid_username).
import * as z from "zod/mini";
import { domainSchema, emailCallbackFormSchema } from "../email-callbacks.schemas";
import { type DomainChoices, isOfferedDomain, isWildcardRefusedOn } from "./email-callback-domains";

export const WILDCARD_ON_OPERATOR_DOMAIN_MESSAGE = "apiErrors.email_callback.invalid_username";

export function buildEmailCallbackFormSchema(choices: DomainChoices) {
  return z
    .extend(emailCallbackFormSchema, {
      domain: domainSchema.check(
        z.refine((domain: string) => isOfferedDomain(choices, domain), "emailCallbacks.form.validation.domainInvalid"),
      ),
    })
    .check(
      z.refine((values: { username: string; domain: string }) => !isWildcardRefusedOn(choices, values), {
        message: WILDCARD_ON_OPERATOR_DOMAIN_MESSAGE,
        path: ["username"],
      }),
    );
}
