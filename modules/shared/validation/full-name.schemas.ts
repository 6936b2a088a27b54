// The account's full name: trimmed, 2 to 49 characters ("less than 50"). One schema for the
// settings form, PUT /api/users/me and better-auth's update-user, so none of them stores another
// rule. Messages are i18n keys (messages/*.json), translated where they are shown.
import { z } from "zod";

export const FULL_NAME_MIN_LENGTH = 2;
export const FULL_NAME_MAX_LENGTH = 49;

export const FULL_NAME_MESSAGES = {
  tooShort: "settings.fullName.validation.tooShort",
  tooLong: "settings.fullName.validation.tooLong",
} as const;

export const fullNameSchema = z
  .string({ error: FULL_NAME_MESSAGES.tooShort })
  .trim()
  .min(FULL_NAME_MIN_LENGTH, FULL_NAME_MESSAGES.tooShort)
  .max(FULL_NAME_MAX_LENGTH, FULL_NAME_MESSAGES.tooLong);
