// The account's editable fields: the same schema validates the settings form and PUT /api/users/me.
// Messages are i18n keys (messages/*.json), translated where they are shown.
import { z } from "zod";

export const FULL_NAME_MIN_LENGTH = 2;
export const FULL_NAME_MAX_LENGTH = 49;

export const updateUserSchema = z.object({
  name: z
    .string({ error: "settings.fullName.validation.tooShort" })
    .trim()
    .min(FULL_NAME_MIN_LENGTH, "settings.fullName.validation.tooShort")
    .max(FULL_NAME_MAX_LENGTH, "settings.fullName.validation.tooLong"),
});

export type UpdateUserInput = z.infer<typeof updateUserSchema>;
