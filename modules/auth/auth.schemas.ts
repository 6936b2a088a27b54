// Form schemas of the auth pages. Messages are i18n keys, translated where they are shown.
import { z } from "zod";
import { fullNameSchema } from "@/modules/shared/validation/full-name.schemas";
import { AUTH_LIMITS } from "./auth.constants";

export const loginSchema = z.object({
  email: z.string().trim().min(1, "login.validation.emailRequired").pipe(z.email("login.validation.emailInvalid")),
  password: z.string().min(1, "login.validation.passwordRequired"),
  rememberMe: z.boolean(),
});

export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  email: z.string().trim().min(1, "register.validation.emailRequired").pipe(z.email("register.validation.emailInvalid")),
  name: fullNameSchema,
  password: z
    .string()
    .min(AUTH_LIMITS.passwordMinLength, "register.validation.passwordTooShort")
    .max(AUTH_LIMITS.passwordMaxLength, "register.validation.passwordTooLong"),
});

export type RegisterInput = z.infer<typeof registerSchema>;

export const requestPasswordResetSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "requestPasswordReset.validation.emailRequired")
    .pipe(z.email("requestPasswordReset.validation.emailInvalid")),
});

export type RequestPasswordResetInput = z.infer<typeof requestPasswordResetSchema>;

export const resetPasswordSchema = z.object({
  newPassword: z
    .string()
    .min(1, "resetPassword.validation.passwordRequired")
    .min(AUTH_LIMITS.passwordMinLength, "resetPassword.validation.passwordTooShort")
    .max(AUTH_LIMITS.passwordMaxLength, "resetPassword.validation.passwordTooLong"),
});

export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export const resendVerificationEmailSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "emailValidationRequired.resend.validation.emailRequired")
    .pipe(z.email("emailValidationRequired.resend.validation.emailInvalid")),
});

export type ResendVerificationEmailInput = z.infer<typeof resendVerificationEmailSchema>;
