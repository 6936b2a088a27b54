"use client";
// Sign-in: the social providers when enabled, the email and
// password form, and the legal links under the card.
import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Checkbox } from "@/components/ui/checkbox";
import { Form, FormControl, FormField, FormItem, FormLabel } from "@/components/ui/form";
import { useAppConfig } from "@/modules/config/components/config-provider";
import { FormErrorMessage, SubmitButton, TextFormField } from "@/modules/shared/components/form-fields";
import { authClient } from "../auth.client";
import { type LoginInput, loginSchema } from "../auth.schemas";
import { AuthCard } from "./auth-card";
import { AuthMethods } from "./auth-methods";
import { LegalLinks } from "./legal-links";
import { useAuthErrorMessage } from "./use-auth-error-message";

export function LoginForm() {
  const t = useTranslations("login");
  return (
    <div className="flex w-full max-w-sm flex-col gap-4">
      <AuthCard title={t("title")} description={t("description")}>
        <AuthMethods emailButtonLabel={t("withEmail")}>
          <EmailLoginForm />
        </AuthMethods>
        <p className="text-muted-foreground mt-6 text-center text-sm">
          {t("noAccount")}{" "}
          <Link href="/register" className="text-foreground font-medium hover:underline">
            {t("register")}
          </Link>
        </p>
      </AuthCard>
      <LegalLinks />
    </div>
  );
}

function EmailLoginForm() {
  const t = useTranslations("login");
  const router = useRouter();
  const config = useAppConfig();
  const [formError, setFormError] = useState<string | null>(null);
  const authErrorMessage = useAuthErrorMessage();
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: "", password: "", rememberMe: true },
  });

  async function onSubmit(values: LoginInput) {
    setFormError(null);
    const { error } = await authClient.signIn.email({ ...values, callbackURL: "/" });
    if (!error) return router.replace("/");
    if (error.code === "EMAIL_NOT_VERIFIED") return router.push("/email-validation-required");
    setFormError(authErrorMessage(error) ?? t("unknownError"));
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
          name="password"
          label={t("password")}
          type="password"
          autoComplete="current-password"
          labelAside={
            config.auth.isPasswordResetEnabled ? (
              <Link href="/request-password-reset" className="text-muted-foreground text-sm hover:underline">
                {t("forgotPassword")}
              </Link>
            ) : null
          }
        />
        <FormField
          control={form.control}
          name="rememberMe"
          render={({ field }) => (
            <FormItem className="flex flex-row items-center gap-2">
              <FormControl>
                <Checkbox checked={field.value} onCheckedChange={(checked) => field.onChange(checked === true)} />
              </FormControl>
              <FormLabel className="font-normal">{t("rememberMe")}</FormLabel>
            </FormItem>
          )}
        />
        <FormErrorMessage message={formError} />
        <SubmitButton isSubmitting={form.formState.isSubmitting}>{t("submit")}</SubmitButton>
      </form>
    </Form>
  );
}
