// The create form's schema: the same zod schema validates the form and POST /api/api-keys.
// Messages are i18n keys (spelled out whole, so the catalogue test sees them used), translated
// where they are shown; API callers get the English text. zod/mini, as every schema a form uses
// (docs/architecture.md: Decisions).
import * as z from "zod/mini";
import { API_KEY_NAME_MAX_LENGTH } from "./api-keys.constants";

export const createApiKeySchema = z.object({
  name: z
    .string({ error: "apiKeys.create.validation.nameRequired" })
    .check(
      z.trim(),
      z.minLength(1, "apiKeys.create.validation.nameRequired"),
      z.maxLength(API_KEY_NAME_MAX_LENGTH, "apiKeys.create.validation.nameTooLong"),
    ),
});

export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;
