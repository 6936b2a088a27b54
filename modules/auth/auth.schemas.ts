// Form schemas of the auth pages. Messages are i18n keys, translated where they are shown.
// zod/mini, as every schema a form uses (docs/architecture.md: Decisions).
import * as z from "zod/mini";
import { fullNameSchema } from "@/modules/shared/validation/full-name.schemas";
import { AUTH_LIMITS } from "./auth.constants";

/** Trimmed, then required and an address: the messages of `required` and `invalid`. */
const emailFieldSchema = (messages: { required: string; invalid: string }) =>
  z.pipe(z.string().check(z.trim(), z.minLength(1, messages.required)), z.email(messages.invalid));

export const loginSchema = z.object({
  email: emailFieldSchema({ required: "login.validation.emailRequired", invalid: "login.validation.emailInvalid" }),
  password: z.string().check(z.minLength(1, "login.validation.passwordRequired")),
  rememberMe: z.boolean(),
});

export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  email: emailFieldSchema({ required: "register.validation.emailRequired", invalid: "register.validation.emailInvalid" }),
  name: fullNameSchema,
  password: z
    .string()
    .check(
      z.minLength(AUTH_LIMITS.passwordMinLength, "register.validation.passwordTooShort"),
      z.maxLength(AUTH_LIMITS.passwordMaxLength, "register.validation.passwordTooLong"),
    ),
});

export type RegisterInput = z.infer<typeof registerSchema>;

export const requestPasswordResetSchema = z.object({
  email: emailFieldSchema({
    required: "requestPasswordReset.validation.emailRequired",
    invalid: "requestPasswordReset.validation.emailInvalid",
  }),
});

export type RequestPasswordResetInput = z.infer<typeof requestPasswordResetSchema>;

export const resetPasswordSchema = z.object({
  newPassword: z
    .string()
    .check(
      z.minLength(1, "resetPassword.validation.passwordRequired"),
      z.minLength(AUTH_LIMITS.passwordMinLength, "resetPassword.validation.passwordTooShort"),
      z.maxLength(AUTH_LIMITS.passwordMaxLength, "resetPassword.validation.passwordTooLong"),
    ),
});

export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export const resendVerificationEmailSchema = z.object({
  email: emailFieldSchema({
    required: "emailValidationRequired.resend.validation.emailRequired",
    invalid: "emailValidationRequired.resend.validation.emailInvalid",
  }),
});

export type ResendVerificationEmailInput = z.infer<typeof resendVerificationEmailSchema>;
