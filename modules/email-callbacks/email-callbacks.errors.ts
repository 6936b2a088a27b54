// Error factories of email callbacks, with namespaced codes.
import { AppError, defineError } from "@/modules/shared/errors/app-error";

export const createEmailCallbackNotFoundError = defineError("email_callback.not_found", "The email callback was not found.");

export const createEmailCallbackAlreadyExistsError = defineError(
  "email_callback.already_exists",
  "An email with this username already exists.",
  { path: "username", code: "already_exists", message: "An email with this username already exists" },
);

export const createUsernameNotAllowedError = defineError(
  "email_callback.username_not_allowed",
  "This username is not allowed, please choose a different one.",
  { path: "username", code: "not_allowed", message: "This username is not allowed, please choose a different one" },
);

export const createInvalidDomainError = (availableDomains: string[]) =>
  new AppError({
    code: "email_callback.invalid_domain",
    message: `Invalid domain: choose one of ${availableDomains.join(", ")}, or one of your verified domains.`,
    fields: [{ path: "domain", code: "invalid_domain", message: "Invalid domain" }],
  });

export const createInvalidUsernameError = defineError(
  "email_callback.invalid_username",
  "Patterns (with *) and catch-alls exist only on your own domains.",
  { path: "username", code: "invalid_username", message: "Patterns and catch-alls exist only on your own domains" },
);

export const createWebhookUrlNotAllowedError =
  // Says no more than "not allowed": never which address a name resolved to (docs/security.md).
  defineError("email_callback.webhook_url_not_allowed", "The webhook URL is not allowed: it must lead to a public address.", {
    path: "webhookUrl",
    code: "not_allowed",
    message: "The webhook URL must reach a public address",
  });

export const createEmailCallbacksLimitReachedError = (limit: number) =>
  new AppError({
    code: "email_callbacks.limit_reached",
    message: `You have reached the maximum number of emails you can create (${limit}), please upgrade your plan to create more emails.`,
  });
