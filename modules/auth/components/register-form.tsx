"use client";
// Registration (specification §2 Register, §4, §5): the social providers when enabled and the
// email, full name and password form; a notice instead when the instance closed registration.
import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form, FormControl, FormField, FormItem, FormLabel } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useAppConfig } from "@/modules/config/components/config-provider";
import { TranslatedFormMessage } from "@/modules/i18n/components/translated-form-message";
import { authClient } from "../auth.client";
import { registerSchema, type RegisterInput } from "../auth.schemas";
import { AuthMethods } from "./auth-methods";
import { LegalLinks } from "./legal-links";
import { useAuthErrorMessage } from "./use-auth-error-message";

export function RegisterForm() {
  const t = useTranslations("register");
  const config = useAppConfig();
  if (!config.auth.isRegistrationEnabled) return <RegistrationDisabled />;

  return (
    <div className="flex w-full max-w-sm flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">{t("title")}</CardTitle>
          <CardDescription>{t("description")}</CardDescription>
        </CardHeader>
        <CardContent>
          <AuthMethods emailButtonLabel={t("withEmail")}>
            <EmailRegisterForm />
          </AuthMethods>
          <p className="text-muted-foreground mt-6 text-center text-sm">
            {t("hasAccount")}{" "}
            <Link href="/login" className="text-foreground font-medium hover:underline">
              {t("login")}
            </Link>
          </p>
        </CardContent>
      </Card>
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
        <FormField
          control={form.control}
          name="email"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t("email")}</FormLabel>
              <FormControl>
                <Input type="email" autoComplete="email" placeholder={t("emailPlaceholder")} {...field} />
              </FormControl>
              <TranslatedFormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="name"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t("name")}</FormLabel>
              <FormControl>
                <Input autoComplete="name" placeholder={t("namePlaceholder")} {...field} />
              </FormControl>
              <TranslatedFormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="password"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t("password")}</FormLabel>
              <FormControl>
                <Input type="password" autoComplete="new-password" {...field} />
              </FormControl>
              <TranslatedFormMessage />
            </FormItem>
          )}
        />
        {formError ? (
          <p role="alert" className="text-destructive text-sm">
            {formError}
          </p>
        ) : null}
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? <Spinner /> : null}
          {t("submit")}
        </Button>
      </form>
    </Form>
  );
}

function RegistrationDisabled() {
  const t = useTranslations("register.disabled");
  return (
    <Card className="w-full max-w-sm">
      <CardHeader>
        <CardTitle className="text-xl">{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline" className="w-full">
          <Link href="/login">{t("backToLogin")}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
