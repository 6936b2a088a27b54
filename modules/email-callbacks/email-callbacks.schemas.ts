// The email callback form's schema: the same zod schema validates the dashboard form and the
// API route. Messages are i18n keys (emailCallbacks.form.validation.*), shown translated. zod/mini,
// whose checks are functions the browser's bundle keeps only when used (docs/architecture.md:
// Decisions).
import * as z from "zod/mini";
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
export const usernameSchema = z.string({ error: "emailCallbacks.form.validation.usernameRequired" }).check(
  z.trim(),
  z.toLowerCase(),
  z.minLength(1, "emailCallbacks.form.validation.usernameRequired"),
  z.regex(USERNAME_OR_PATTERN_CHARACTERS_PATTERN, "emailCallbacks.form.validation.usernameCharacters"),
  z.refine(
    (username: string) => isWildcardUsername(username) || username.length >= USERNAME_MIN_LENGTH,
    "emailCallbacks.form.validation.usernameTooShort",
  ),
  z.maxLength(USERNAME_MAX_LENGTH, "emailCallbacks.form.validation.usernameTooLong"),
  z.refine(
    (username: string) => isWildcardUsername(username) || USERNAME_PATTERN.test(username),
    "emailCallbacks.form.validation.usernameEdges",
  ),
  z.refine(
    (username: string) => !isWildcardUsername(username) || isValidUsernamePattern(username),
    "emailCallbacks.form.validation.usernamePatternInvalid",
  ),
);

export const webhookUrlSchema = z.string({ error: "emailCallbacks.form.validation.webhookUrlRequired" }).check(
  z.trim(),
  z.minLength(1, "emailCallbacks.form.validation.webhookUrlRequired"),
  z.maxLength(2048, "emailCallbacks.form.validation.webhookUrlInvalid"),
  z.refine((value: string) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "emailCallbacks.form.validation.webhookUrlInvalid"),
);

/** Empty means "no secret". */
export const webhookSecretSchema = z.string().check(
  z.refine(
    (value: string) => value === "" || value.length >= WEBHOOK_SECRET_MIN_LENGTH,
    "emailCallbacks.form.validation.webhookSecretTooShort",
  ),
  z.refine((value: string) => value.length <= WEBHOOK_SECRET_MAX_LENGTH, "emailCallbacks.form.validation.webhookSecretTooLong"),
  // Printable ASCII only: receivers key the HMAC with the secret's bytes, and common libraries
  // (standardwebhooks' "raw" format among them) encode non-ASCII strings differently.
  z.refine((value: string) => /^[\x21-\x7e]*$/.test(value), "emailCallbacks.form.validation.webhookSecretCharacters"),
);

const emailSchema = z.email();

/** A sender address, or `@domain` for every sender of a domain. */
export const allowedOriginSchema = z.string({ error: "emailCallbacks.form.validation.allowedOriginRequired" }).check(
  z.trim(),
  z.toLowerCase(),
  z.minLength(1, "emailCallbacks.form.validation.allowedOriginRequired"),
  z.refine(
    (value: string) => emailSchema.safeParse(value.startsWith("@") ? `sender${value}` : value).success,
    "emailCallbacks.form.validation.allowedOriginInvalid",
  ),
);

export const domainSchema = z
  .string({ error: "emailCallbacks.form.validation.domainInvalid" })
  .check(z.trim(), z.toLowerCase(), z.minLength(1, "emailCallbacks.form.validation.domainInvalid"));

export const attachmentDeliverySchema = z.enum(ATTACHMENT_DELIVERIES, {
  error: "emailCallbacks.form.validation.attachmentDeliveryInvalid",
});

export const authenticationPolicySchema = z.enum(AUTHENTICATION_POLICIES, {
  error: "emailCallbacks.form.validation.authenticationPolicyInvalid",
});

/** A score at or above which mail is recorded as spam and not delivered; null: none. */
export const spamThresholdSchema = z.nullable(
  z
    .number({ error: "emailCallbacks.form.validation.spamThresholdInvalid" })
    .check(
      z.gte(SPAM_THRESHOLD_MIN, "emailCallbacks.form.validation.spamThresholdInvalid"),
      z.lte(SPAM_THRESHOLD_MAX, "emailCallbacks.form.validation.spamThresholdInvalid"),
    ),
);

const allowedOriginsSchema = z
  .array(allowedOriginSchema)
  .check(z.maxLength(MAX_ALLOWED_ORIGINS, "emailCallbacks.form.validation.allowedOriginsTooMany"));

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
  webhookSecret: z.optional(webhookSecretSchema),
  allowedOrigins: z._default(allowedOriginsSchema, []),
  attachmentDelivery: z._default(attachmentDeliverySchema, "inline"),
  authenticationPolicy: z._default(authenticationPolicySchema, "none"),
  spamThreshold: z._default(spamThresholdSchema, null),
});

export const updateEmailCallbackSchema = z.partial(
  z.object({
    domain: domainSchema,
    username: usernameSchema,
    webhookUrl: webhookUrlSchema,
    /** Sent only when changed; "" removes the secret. */
    webhookSecret: webhookSecretSchema,
    allowedOrigins: allowedOriginsSchema,
    isEnabled: z.boolean(),
    ...mailOptionsShape,
  }),
);

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
    .check(z.maxLength(MAX_ALLOWED_ORIGINS, "emailCallbacks.form.validation.allowedOriginsTooMany")),
  ...mailOptionsShape,
});

export type EmailCallbackFormValues = z.input<typeof emailCallbackFormSchema>;
