"use client";
// The form card of the two password-reset pages: sends the form to the auth service and shows its
// error, translated. Nothing while the guard sends the visitor to /login (password reset is off).
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { SubmitForm } from "@/modules/shared/components/submit-form";
import { AuthCard } from "./auth-card";
import { type AuthError, useAuthErrorMessage } from "./use-auth-error-message";
import { usePasswordResetGuard } from "./use-password-reset-guard";

export function PasswordResetFormCard<TValues extends FieldValues>({
  namespace,
  form,
  send,
  onSent,
  footer,
  children,
}: {
  /** The page's messages: its title, description, submit label and unknown error. */
  namespace: "requestPasswordReset" | "resetPassword";
  form: UseFormReturn<TValues>;
  send: (values: TValues) => Promise<{ error: AuthError | null }>;
  onSent: (values: TValues) => void;
  /** Under the form, inside the card. */
  footer?: ReactNode;
  /** The form's fields. */
  children: ReactNode;
}) {
  const t = useTranslations(namespace);
  const authErrorMessage = useAuthErrorMessage(t("unknownError"));
  const isPasswordResetEnabled = usePasswordResetGuard();

  async function onSubmit(values: TValues) {
    const { error } = await send(values);
    if (error) return authErrorMessage(error);
    onSent(values);
  }

  if (!isPasswordResetEnabled) return null;
  return (
    <AuthCard title={t("title")} description={t("description")} className="w-full max-w-sm">
      <SubmitForm form={form} onSubmit={onSubmit} submitLabel={t("submit")}>
        {children}
      </SubmitForm>
      {footer}
    </AuthCard>
  );
}
