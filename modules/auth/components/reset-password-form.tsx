"use client";
// Setting a new password from the reset mail's link: the form, then
// the confirmation. Closed when the instance disabled password reset.
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useZodForm } from "@/modules/shared/components/submit-form";
import { authClient } from "../auth.client";
import { resetPasswordSchema } from "../auth.schemas";
import { LoginLinkCard } from "./auth-card";
import { PasswordFormField } from "./auth-form-fields";
import { PasswordResetFormCard } from "./password-reset-form-card";

export function ResetPasswordForm({ token }: { token: string }) {
  const t = useTranslations("resetPassword");
  const [isDone, setIsDone] = useState(false);
  const form = useZodForm(resetPasswordSchema, { newPassword: "" });

  if (isDone) return <PasswordResetDone />;
  return (
    <PasswordResetFormCard
      namespace="resetPassword"
      form={form}
      send={({ newPassword }) => authClient.resetPassword({ newPassword, token })}
      onSent={() => setIsDone(true)}
    >
      <PasswordFormField control={form.control} name="newPassword" label={t("newPassword")} autoComplete="new-password" />
    </PasswordResetFormCard>
  );
}

function PasswordResetDone() {
  const t = useTranslations("resetPassword.done");
  return <LoginLinkCard title={t("title")} description={t("description")} linkLabel={t("goToLogin")} />;
}
