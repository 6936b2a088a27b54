// The create form's schema: the same zod schema validates the form and POST /api/api-keys.
// Messages are i18n keys (spelled out whole, so the catalogue test sees them used), translated
// where they are shown; API callers get the English text.
import { z } from "zod";
import { API_KEY_NAME_MAX_LENGTH } from "./api-keys.constants";

export const createApiKeySchema = z.object({
  name: z
    .string({ error: "apiKeys.create.validation.nameRequired" })
    .trim()
    .min(1, "apiKeys.create.validation.nameRequired")
    .max(API_KEY_NAME_MAX_LENGTH, "apiKeys.create.validation.nameTooLong"),
});

export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;
