"use client";
// Registration: the social providers when enabled and the
// email, full name and password form; a notice instead when the instance closed registration.
import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { useAppConfig } from "@/modules/config/components/config-provider";
import { FormErrorMessage, SubmitButton, TextFormField } from "@/modules/shared/components/form-fields";
import { authClient } from "../auth.client";
import { type RegisterInput, registerSchema } from "../auth.schemas";
import { AuthCard } from "./auth-card";
import { AuthMethods } from "./auth-methods";
import { LegalLinks } from "./legal-links";
import { useAuthErrorMessage } from "./use-auth-error-message";

export function RegisterForm() {
  const t = useTranslations("register");
  const config = useAppConfig();
  if (!config.auth.isRegistrationEnabled) return <RegistrationDisabled />;

  return (
    <div className="flex w-full max-w-sm flex-col gap-4">
      <AuthCard title={t("title")} description={t("description")}>
        <AuthMethods emailButtonLabel={t("withEmail")}>
          <EmailRegisterForm />
        </AuthMethods>
        <p className="text-muted-foreground mt-6 text-center text-sm">
          {t("hasAccount")}{" "}
          <Link href="/login" className="text-foreground font-medium hover:underline">
            {t("login")}
          </Link>
        </p>
      </AuthCard>
      <LegalLinks />
    </div>
  );
}

function EmailRegisterForm() {
  const t = useTranslations("register");
  const router = useRouter();
  const config = useAppConfig();
  const [formError, setFormError] = useState<string | null>(null);
  const authErrorMessage = useAuthErrorMessage();
  const form = useForm<RegisterInput>({
    resolver: zodResolver(registerSchema),
    defaultValues: { email: "", name: "", password: "" },
  });

  async function onSubmit(values: RegisterInput) {
    setFormError(null);
    const { error } = await authClient.signUp.email({ ...values, callbackURL: "/" });
    if (error) return setFormError(authErrorMessage(error) ?? t("unknownError"));
    router.replace(config.auth.isEmailVerificationRequired ? "/email-validation-required" : "/");
  }

  return (
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
        <TextFormField
          control={form.control}
          name="name"
          label={t("name")}
          autoComplete="name"
          placeholder={t("namePlaceholder")}
        />
        <TextFormField control={form.control} name="password" label={t("password")} type="password" autoComplete="new-password" />
        <FormErrorMessage message={formError} />
        <SubmitButton isSubmitting={form.formState.isSubmitting}>{t("submit")}</SubmitButton>
      </form>
    </Form>
  );
}

function RegistrationDisabled() {
  const t = useTranslations("register.disabled");
  return (
    <AuthCard title={t("title")} description={t("description")} className="w-full max-w-sm">
      <Button asChild variant="outline" className="w-full">
        <Link href="/login">{t("backToLogin")}</Link>
      </Button>
    </AuthCard>
  );
}
