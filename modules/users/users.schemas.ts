// The account's editable fields: PUT /api/users/me takes any of them (those left out keep their
// value), the settings form edits the name with the same rule (the account's one name rule, also
// sign-up's and better-auth's update-user's). Messages are i18n keys (messages/*.json), translated
// where they are shown. zod/mini, as every schema a form uses (docs/architecture.md: Decisions).
import * as z from "zod/mini";
import { fullNameSchema } from "@/modules/shared/validation/full-name.schemas";

/** The settings page's full name form. */
export const fullNameFormSchema = z.object({
  name: fullNameSchema,
});

export type FullNameFormInput = z.infer<typeof fullNameFormSchema>;

/** PUT /api/users/me: a partial update; an unknown field is refused. */
export const updateUserSchema = z.strictObject({
  name: z.optional(fullNameSchema),
  /** Whether the user gets delivery alert mails (docs/webhooks.md: Delivery alerts). */
  deliveryAlerts: z.optional(z.boolean()),
});

export type UpdateUserInput = z.infer<typeof updateUserSchema>;
