// The account's editable fields: PUT /api/users/me takes any of them (those left out keep their
// value), the settings form edits the name with the same rule (the account's one name rule, also
// sign-up's and better-auth's update-user's). Messages are i18n keys (messages/*.json), translated
// where they are shown.
import { z } from "zod";
import { fullNameSchema } from "@/modules/shared/validation/full-name.schemas";

/** The settings page's full name form. */
export const fullNameFormSchema = z.object({
  name: fullNameSchema,
});

export type FullNameFormInput = z.infer<typeof fullNameFormSchema>;

/** PUT /api/users/me: a partial update; an unknown field is refused. */
export const updateUserSchema = z
  .object({
    name: fullNameSchema.optional(),
    /** Whether the user gets delivery alert mails (docs/webhooks.md: Delivery alerts). */
    deliveryAlerts: z.boolean().optional(),
  })
  .strict();

export type UpdateUserInput = z.infer<typeof updateUserSchema>;
