// The email callback form's schema: the same zod schema validates the dashboard form and the
// API route. Messages are i18n keys (emailCallbacks.form.validation.*), shown translated.
import { z } from "zod";
import { isValidUsernamePattern, isWildcardUsername } from "./address-patterns";
import {
  ATTACHMENT_DELIVERIES,
  AUTHENTICATION_POLICIES,
  MAX_ALLOWED_ORIGINS,
  SPAM_THRESHOLD_MAX,
  SPAM_THRESHOLD_MIN,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_OR_PATTERN_CHARACTERS_PATTERN,
  USERNAME_PATTERN,
  WEBHOOK_SECRET_MAX_LENGTH,
  WEBHOOK_SECRET_MIN_LENGTH,
} from "./email-callbacks.constants";

/**
 * An exact username, or on a user's own domain a pattern (`orders-*`) or the catch-all (`*`).
 * Which domain allows which, and the reserved usernames of the operator's domains, are the
 * usecase's rules (email-callbacks.usecases.ts): the schema does not know the domains.
 */
export const usernameSchema = z
  .string({ error: "emailCallbacks.form.validation.usernameRequired" })
  .trim()
  .toLowerCase()
  .min(1, "emailCallbacks.form.validation.usernameRequired")
  .regex(USERNAME_OR_PATTERN_CHARACTERS_PATTERN, "emailCallbacks.form.validation.usernameCharacters")
  .refine(
    (username) => isWildcardUsername(username) || username.length >= USERNAME_MIN_LENGTH,
    "emailCallbacks.form.validation.usernameTooShort",
  )
  .max(USERNAME_MAX_LENGTH, "emailCallbacks.form.validation.usernameTooLong")
  .refine(
    (username) => isWildcardUsername(username) || USERNAME_PATTERN.test(username),
    "emailCallbacks.form.validation.usernameEdges",
  )
  .refine(
    (username) => !isWildcardUsername(username) || isValidUsernamePattern(username),
    "emailCallbacks.form.validation.usernamePatternInvalid",
  );

export const webhookUrlSchema = z
  .string({ error: "emailCallbacks.form.validation.webhookUrlRequired" })
  .trim()
  .min(1, "emailCallbacks.form.validation.webhookUrlRequired")
  .max(2048, "emailCallbacks.form.validation.webhookUrlInvalid")
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "emailCallbacks.form.validation.webhookUrlInvalid");

/** Empty means "no secret". */
export const webhookSecretSchema = z
  .string()
  .refine(
    (value) => value === "" || value.length >= WEBHOOK_SECRET_MIN_LENGTH,
    "emailCallbacks.form.validation.webhookSecretTooShort",
  )
  .refine((value) => value.length <= WEBHOOK_SECRET_MAX_LENGTH, "emailCallbacks.form.validation.webhookSecretTooLong")
  // Printable ASCII only: receivers key the HMAC with the secret's bytes, and common libraries
  // (standardwebhooks' "raw" format among them) encode non-ASCII strings differently.
  .refine((value) => /^[\x21-\x7e]*$/.test(value), "emailCallbacks.form.validation.webhookSecretCharacters");

/** A sender address, or `@domain` for every sender of a domain. */
export const allowedOriginSchema = z
  .string({ error: "emailCallbacks.form.validation.allowedOriginRequired" })
  .trim()
  .toLowerCase()
  .min(1, "emailCallbacks.form.validation.allowedOriginRequired")
  .refine(
    (value) => z.email().safeParse(value.startsWith("@") ? `sender${value}` : value).success,
    "emailCallbacks.form.validation.allowedOriginInvalid",
  );

export const domainSchema = z
  .string({ error: "emailCallbacks.form.validation.domainInvalid" })
  .trim()
  .toLowerCase()
  .min(1, "emailCallbacks.form.validation.domainInvalid");

export const attachmentDeliverySchema = z.enum(ATTACHMENT_DELIVERIES, {
  error: "emailCallbacks.form.validation.attachmentDeliveryInvalid",
});

export const authenticationPolicySchema = z.enum(AUTHENTICATION_POLICIES, {
  error: "emailCallbacks.form.validation.authenticationPolicyInvalid",
});

/** A score at or above which mail is recorded as spam and not delivered; null: none. */
export const spamThresholdSchema = z
  .number({ error: "emailCallbacks.form.validation.spamThresholdInvalid" })
  .min(SPAM_THRESHOLD_MIN, "emailCallbacks.form.validation.spamThresholdInvalid")
  .max(SPAM_THRESHOLD_MAX, "emailCallbacks.form.validation.spamThresholdInvalid")
  .nullable();

/** The options of how mail is checked and delivered, the same on creation and update. */
const mailOptionsShape = {
  attachmentDelivery: attachmentDeliverySchema,
  authenticationPolicy: authenticationPolicySchema,
  spamThreshold: spamThresholdSchema,
};

export const createEmailCallbackSchema = z.object({
  domain: domainSchema,
  username: usernameSchema,
  webhookUrl: webhookUrlSchema,
  webhookSecret: webhookSecretSchema.optional(),
  allowedOrigins: z
    .array(allowedOriginSchema)
    .max(MAX_ALLOWED_ORIGINS, "emailCallbacks.form.validation.allowedOriginsTooMany")
    .default([]),
  attachmentDelivery: attachmentDeliverySchema.default("inline"),
  authenticationPolicy: authenticationPolicySchema.default("none"),
  spamThreshold: spamThresholdSchema.default(null),
});

export const updateEmailCallbackSchema = z
  .object({
    domain: domainSchema,
    username: usernameSchema,
    webhookUrl: webhookUrlSchema,
    /** Sent only when changed; "" removes the secret. */
    webhookSecret: webhookSecretSchema,
    allowedOrigins: z.array(allowedOriginSchema).max(MAX_ALLOWED_ORIGINS, "emailCallbacks.form.validation.allowedOriginsTooMany"),
    isEnabled: z.boolean(),
    ...mailOptionsShape,
  })
  .partial();

export type CreateEmailCallbackInput = z.infer<typeof createEmailCallbackSchema>;
export type UpdateEmailCallbackInput = z.infer<typeof updateEmailCallbackSchema>;

/** The form's values (the form always holds every field; allowed origins as objects for useFieldArray). */
export const emailCallbackFormSchema = z.object({
  domain: domainSchema,
  username: usernameSchema,
  webhookUrl: webhookUrlSchema,
  webhookSecret: webhookSecretSchema,
  allowedOrigins: z
    .array(z.object({ value: allowedOriginSchema }))
    .max(MAX_ALLOWED_ORIGINS, "emailCallbacks.form.validation.allowedOriginsTooMany"),
  ...mailOptionsShape,
});

export type EmailCallbackFormValues = z.input<typeof emailCallbackFormSchema>;

export const listProcessingsQuerySchema = z.object({
  pageIndex: z.coerce.number().int().min(0).max(1_000_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(15),
});
