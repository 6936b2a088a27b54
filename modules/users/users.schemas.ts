// The account's editable fields: the same schema validates the settings form and PUT /api/users/me
// (and its name rule better-auth's update-user). Messages are i18n keys (messages/*.json),
// translated where they are shown.
import { z } from "zod";
import { fullNameSchema } from "@/modules/shared/validation/full-name.schemas";

export { FULL_NAME_MAX_LENGTH, FULL_NAME_MIN_LENGTH } from "@/modules/shared/validation/full-name.schemas";

export const updateUserSchema = z.object({
  name: fullNameSchema,
});

export type UpdateUserInput = z.infer<typeof updateUserSchema>;
