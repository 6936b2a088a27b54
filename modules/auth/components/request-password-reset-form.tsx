"use client";
// Asking for a password reset mail: the email form, then the confirmation
// with a shortcut to the address's webmail when its provider is known. Closed when the instance
// disabled password reset.
import { zodResolver } from "@hookform/resolvers/zod";
import { ExternalLinkIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { FormErrorMessage, SubmitButton, TextFormField } from "@/modules/shared/components/form-fields";
import { authClient } from "../auth.client";
import { type RequestPasswordResetInput, requestPasswordResetSchema } from "../auth.schemas";
import { findMailProvider, getMailProviderUrl } from "../webmail-directory";
import { AuthCard } from "./auth-card";
import { useAuthErrorMessage } from "./use-auth-error-message";
import { usePasswordResetGuard } from "./use-password-reset-guard";

export function RequestPasswordResetForm() {
  const t = useTranslations("requestPasswordReset");
  const [sentToEmail, setSentToEmail] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const authErrorMessage = useAuthErrorMessage();
  const form = useForm<RequestPasswordResetInput>({
    resolver: zodResolver(requestPasswordResetSchema),
    defaultValues: { email: "" },
  });

  const isPasswordResetEnabled = usePasswordResetGuard();

  async function onSubmit({ email }: RequestPasswordResetInput) {
    setFormError(null);
    const { error } = await authClient.requestPasswordReset({
      email,
      redirectTo: `${window.location.origin}/reset-password`,
    });
    if (error) return setFormError(authErrorMessage(error) ?? t("unknownError"));
    setSentToEmail(email);
  }

  if (!isPasswordResetEnabled) return null;
  if (sentToEmail !== null) return <ResetMailSent email={sentToEmail} />;
  return (
    <AuthCard title={t("title")} description={t("description")} className="w-full max-w-sm">
      <Form {...form}>
        <form onSubmit={form.handleSubmit(onSubmit)} className="flex flex-col gap-4" noValidate>
          <TextFormField
            control={form.control}
            name="email"
            label={t("email")}
            type="email"
            autoComplete="email"
            placeholder={t("emailPlaceholder")}
          />
          <FormErrorMessage message={formError} />
          <SubmitButton isSubmitting={form.formState.isSubmitting}>{t("submit")}</SubmitButton>
        </form>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link href="/login" className="text-muted-foreground hover:text-foreground hover:underline">
          {t("backToLogin")}
        </Link>
      </p>
    </AuthCard>
  );
}

function ResetMailSent({ email }: { email: string }) {
  const t = useTranslations("requestPasswordReset");
  const mailProvider = findMailProvider(email);
  return (
    <AuthCard
      title={t("sent.title")}
      description={t("sent.description")}
      className="w-full max-w-sm"
      contentClassName="flex flex-col gap-2"
    >
      {mailProvider ? (
        <Button asChild>
          <a href={getMailProviderUrl({ provider: mailProvider })} target="_blank" rel="noopener noreferrer">
            {t("sent.openMailProvider", { provider: mailProvider.name })}
            <ExternalLinkIcon aria-hidden />
          </a>
        </Button>
      ) : null}
      <Button asChild variant="outline">
        <Link href="/login">{t("backToLogin")}</Link>
      </Button>
    </AuthCard>
  );
}
