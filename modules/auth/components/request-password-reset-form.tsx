"use client";
// Asking for a password reset mail: the email form, then the confirmation
// with a shortcut to the address's webmail when its provider is known. Closed when the instance
// disabled password reset.
import { ExternalLinkIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useZodForm } from "@/modules/shared/components/submit-form";
import { authClient } from "../auth.client";
import { requestPasswordResetSchema } from "../auth.schemas";
import { findMailProvider, getMailProviderUrl } from "../webmail-directory";
import { EmailFormField } from "./auth-form-fields";
import { AuthNoticeCard } from "./auth-notice-card";
import { PasswordResetFormCard } from "./password-reset-form-card";

export function RequestPasswordResetForm() {
  const t = useTranslations("requestPasswordReset");
  const [sentToEmail, setSentToEmail] = useState<string | null>(null);
  const form = useZodForm(requestPasswordResetSchema, { email: "" });

  if (sentToEmail !== null) return <ResetMailSent email={sentToEmail} />;
  return (
    <PasswordResetFormCard
      namespace="requestPasswordReset"
      form={form}
      send={({ email }) => authClient.requestPasswordReset({ email, redirectTo: `${window.location.origin}/reset-password` })}
      onSent={({ email }) => setSentToEmail(email)}
      footer={
        <p className="mt-6 text-center text-sm">
          <Link href="/login" className="text-muted-foreground hover:text-foreground hover:underline">
            {t("backToLogin")}
          </Link>
        </p>
      }
    >
      <EmailFormField control={form.control} label={t("email")} placeholder={t("emailPlaceholder")} />
    </PasswordResetFormCard>
  );
}

function ResetMailSent({ email }: { email: string }) {
  const t = useTranslations("requestPasswordReset");
  const mailProvider = findMailProvider(email);
  return (
    <AuthNoticeCard title={t("sent.title")} description={t("sent.description")}>
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
    </AuthNoticeCard>
  );
}
