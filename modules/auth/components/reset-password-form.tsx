"use client";
// Setting a new password from the reset mail's link (specification §2, §4, §5): the form, then
// the confirmation. Closed when the instance disabled password reset.
import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form, FormControl, FormField, FormItem, FormLabel } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useAppConfig } from "@/modules/config/components/config-provider";
import { TranslatedFormMessage } from "@/modules/i18n/components/translated-form-message";
import { authClient } from "../auth.client";
import { resetPasswordSchema, type ResetPasswordInput } from "../auth.schemas";
import { useAuthErrorMessage } from "./use-auth-error-message";

export function ResetPasswordForm({ token }: { token: string }) {
  const t = useTranslations("resetPassword");
  const router = useRouter();
  const config = useAppConfig();
  const [isDone, setIsDone] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const authErrorMessage = useAuthErrorMessage();
  const form = useForm<ResetPasswordInput>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { newPassword: "" },
  });

  useEffect(() => {
    if (!config.auth.isPasswordResetEnabled) router.replace("/login");
  }, [config.auth.isPasswordResetEnabled, router]);

  async function onSubmit({ newPassword }: ResetPasswordInput) {
    setFormError(null);
    const { error } = await authClient.resetPassword({ newPassword, token });
    if (error) return setFormError(authErrorMessage(error) ?? t("unknownError"));
    setIsDone(true);
  }

  if (!config.auth.isPasswordResetEnabled) return null;
  if (isDone) return <PasswordResetDone />;
  return (
    <Card className="w-full max-w-sm">
      <CardHeader>
        <CardTitle className="text-xl">{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="flex flex-col gap-4" noValidate>
            <FormField
              control={form.control}
              name="newPassword"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("newPassword")}</FormLabel>
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
      </CardContent>
    </Card>
  );
}

function PasswordResetDone() {
  const t = useTranslations("resetPassword.done");
  return (
    <Card className="w-full max-w-sm">
      <CardHeader>
        <CardTitle className="text-xl">{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild className="w-full">
          <Link href="/login">{t("goToLogin")}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
