"use client";
// Setting a new password from the reset mail's link: the form, then
// the confirmation; the invalid-link notice when the server refuses the token (used or expired
// meanwhile). Closed when the instance disabled password reset.
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useZodForm } from "@/modules/shared/components/submit-form";
import { authClient } from "../auth.client";
import { resetPasswordSchema } from "../auth.schemas";
import { LoginLinkCard } from "./auth-card";
import { PasswordFormField } from "./auth-form-fields";
import { InvalidResetLink } from "./invalid-reset-link";
import { PasswordResetFormCard } from "./password-reset-form-card";

const INVALID_TOKEN_CODE = "INVALID_TOKEN";

export function ResetPasswordForm({ token }: { token: string }) {
  const t = useTranslations("resetPassword");
  const [isDone, setIsDone] = useState(false);
  const [isTokenRefused, setIsTokenRefused] = useState(false);
  const form = useZodForm(resetPasswordSchema, { newPassword: "" });

  async function send({ newPassword }: { newPassword: string }) {
    const result = await authClient.resetPassword({ newPassword, token });
    if (result.error?.code === INVALID_TOKEN_CODE) setIsTokenRefused(true);
    return result;
  }

  if (isDone) return <PasswordResetDone />;
  if (isTokenRefused) return <InvalidResetLink />;
  return (
    <PasswordResetFormCard namespace="resetPassword" form={form} send={send} onSent={() => setIsDone(true)}>
      <PasswordFormField control={form.control} name="newPassword" label={t("newPassword")} autoComplete="new-password" />
    </PasswordResetFormCard>
  );
}

function PasswordResetDone() {
  const t = useTranslations("resetPassword.done");
  return <LoginLinkCard title={t("title")} description={t("description")} linkLabel={t("goToLogin")} />;
}
