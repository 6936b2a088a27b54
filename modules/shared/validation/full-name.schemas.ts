// The account's name: trimmed, 1 to 64 characters. One rule for the sign-up form, the settings
// form, better-auth's sign-up and update-user, and PUT /api/users/me, so that a name one of them
// takes is never refused by another. Messages are i18n keys (messages/*.json), translated where
// they are shown. zod/mini, as every schema a form uses (docs/architecture.md: Decisions).
import * as z from "zod/mini";

export const FULL_NAME_MAX_LENGTH = 64;

export const FULL_NAME_MESSAGES = {
  required: "accountName.validation.required",
  tooLong: "accountName.validation.tooLong",
} as const;

export const fullNameSchema = z
  .string({ error: FULL_NAME_MESSAGES.required })
  .check(z.trim(), z.minLength(1, FULL_NAME_MESSAGES.required), z.maxLength(FULL_NAME_MAX_LENGTH, FULL_NAME_MESSAGES.tooLong));
