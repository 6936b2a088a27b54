"use client";
// Setting a new password from the reset mail's link: the form, then
// the confirmation. Closed when the instance disabled password reset.
import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { FormErrorMessage, SubmitButton, TextFormField } from "@/modules/shared/components/form-fields";
import { authClient } from "../auth.client";
import { type ResetPasswordInput, resetPasswordSchema } from "../auth.schemas";
import { AuthCard } from "./auth-card";
import { useAuthErrorMessage } from "./use-auth-error-message";
import { usePasswordResetGuard } from "./use-password-reset-guard";

export function ResetPasswordForm({ token }: { token: string }) {
  const t = useTranslations("resetPassword");
  const [isDone, setIsDone] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const authErrorMessage = useAuthErrorMessage();
  const form = useForm<ResetPasswordInput>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { newPassword: "" },
  });

  const isPasswordResetEnabled = usePasswordResetGuard();

  async function onSubmit({ newPassword }: ResetPasswordInput) {
    setFormError(null);
    const { error } = await authClient.resetPassword({ newPassword, token });
    if (error) return setFormError(authErrorMessage(error) ?? t("unknownError"));
    setIsDone(true);
  }

  if (!isPasswordResetEnabled) return null;
  if (isDone) return <PasswordResetDone />;
  return (
    <AuthCard title={t("title")} description={t("description")} className="w-full max-w-sm">
      <Form {...form}>
        <form onSubmit={form.handleSubmit(onSubmit)} className="flex flex-col gap-4" noValidate>
          <TextFormField
            control={form.control}
            name="newPassword"
            label={t("newPassword")}
            type="password"
            autoComplete="new-password"
          />
          <FormErrorMessage message={formError} />
          <SubmitButton isSubmitting={form.formState.isSubmitting}>{t("submit")}</SubmitButton>
        </form>
      </Form>
    </AuthCard>
  );
}

function PasswordResetDone() {
  const t = useTranslations("resetPassword.done");
  return (
    <AuthCard title={t("title")} description={t("description")} className="w-full max-w-sm">
      <Button asChild className="w-full">
        <Link href="/login">{t("goToLogin")}</Link>
      </Button>
    </AuthCard>
  );
}
