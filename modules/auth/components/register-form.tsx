"use client";
// Registration: the social providers when enabled and the
// email, full name and password form; a notice instead when the instance closed registration.
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useAppConfig } from "@/modules/config/components/config-provider";
import { FullNameFormField } from "@/modules/shared/components/full-name-form-field";
import { useZodForm } from "@/modules/shared/components/submit-form";
import { authClient } from "../auth.client";
import { type RegisterInput, registerSchema } from "../auth.schemas";
import { LoginLinkCard } from "./auth-card";
import { PasswordFormField } from "./auth-form-fields";
import { AuthMethodsCard } from "./auth-methods-card";
import { rememberPendingVerificationEmail } from "./pending-verification-email";
import { useAuthErrorMessage } from "./use-auth-error-message";

export function RegisterForm() {
  const t = useTranslations("register");
  const router = useRouter();
  const config = useAppConfig();
  const authErrorMessage = useAuthErrorMessage(t("unknownError"));
  const form = useZodForm(registerSchema, { email: "", name: "", password: "" });

  async function onSubmit(values: RegisterInput) {
    const { error } = await authClient.signUp.email({ ...values, callbackURL: "/" });
    if (error) return authErrorMessage(error);
    if (config.auth.isEmailVerificationRequired) {
      rememberPendingVerificationEmail(values.email);
      router.replace("/email-validation-required");
    } else router.replace("/");
  }

  if (!config.auth.isRegistrationEnabled) return <RegistrationDisabled />;
  return (
    <AuthMethodsCard namespace="register" form={form} onSubmit={onSubmit}>
      <FullNameFormField control={form.control} label={t("name")} placeholder={t("namePlaceholder")} />
      <PasswordFormField control={form.control} name="password" label={t("password")} autoComplete="new-password" />
    </AuthMethodsCard>
  );
}

function RegistrationDisabled() {
  const t = useTranslations("register.disabled");
  return <LoginLinkCard title={t("title")} description={t("description")} linkLabel={t("backToLogin")} linkVariant="outline" />;
}
