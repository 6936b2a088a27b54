// Error factories of email callbacks, with namespaced codes.
import { AppError } from "@/modules/shared/errors/app-error";

export const createEmailCallbackNotFoundError = () =>
  new AppError({ code: "email_callback.not_found", message: "The email callback was not found." });

export const createEmailCallbackAlreadyExistsError = () =>
  new AppError({
    code: "email_callback.already_exists",
    message: "An email with this username already exists.",
    fields: [{ path: "username", code: "already_exists", message: "An email with this username already exists" }],
  });

export const createUsernameNotAllowedError = () =>
  new AppError({
    code: "email_callback.username_not_allowed",
    message: "This username is not allowed, please choose a different one.",
    fields: [{ path: "username", code: "not_allowed", message: "This username is not allowed, please choose a different one" }],
  });

export const createInvalidDomainError = (availableDomains: string[]) =>
  new AppError({
    code: "email_callback.invalid_domain",
    message: `Invalid domain: choose one of ${availableDomains.join(", ")}.`,
    fields: [{ path: "domain", code: "invalid_domain", message: "Invalid domain" }],
  });

export const createWebhookUrlNotAllowedError = () =>
  new AppError({
    code: "email_callback.webhook_url_not_allowed",
    // Says no more than "not allowed": never which address a name resolved to (docs/security.md).
    message: "The webhook URL is not allowed: it must lead to a public address.",
    fields: [{ path: "webhookUrl", code: "not_allowed", message: "The webhook URL must reach a public address" }],
  });

export const createEmailCallbacksLimitReachedError = (limit: number) =>
  new AppError({
    code: "email_callbacks.limit_reached",
    message: `You have reached the maximum number of emails you can create (${limit}), please upgrade your plan to create more emails.`,
  });
