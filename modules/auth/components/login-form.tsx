"use client";
// Sign-in: the social providers when enabled, the email and password form, and the legal links
// under the card. Signing in leads back to the page that sent the visitor here (?returnTo=), or home.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { Checkbox } from "@/components/ui/checkbox";
import { FormControl, FormField, FormItem, FormLabel } from "@/components/ui/form";
import { useAppConfig } from "@/modules/config/components/config-provider";
import { useZodForm } from "@/modules/shared/components/submit-form";
import { authClient } from "../auth.client";
import { type LoginInput, loginSchema } from "../auth.schemas";
import { PasswordFormField } from "./auth-form-fields";
import { AuthMethodsCard } from "./auth-methods-card";
import { rememberPendingVerificationEmail } from "./pending-verification-email";
import { readReturnPath } from "./return-path";
import { useAuthErrorMessage } from "./use-auth-error-message";

export function LoginForm() {
  const t = useTranslations("login");
  const router = useRouter();
  const authErrorMessage = useAuthErrorMessage(t("unknownError"));
  const form = useZodForm(loginSchema, { email: "", password: "", rememberMe: true });

  async function onSubmit(values: LoginInput) {
    const returnPath = readReturnPath();
    const { error } = await authClient.signIn.email({ ...values, callbackURL: returnPath });
    if (!error) router.replace(returnPath);
    else if (error.code === "EMAIL_NOT_VERIFIED") {
      rememberPendingVerificationEmail(values.email);
      router.push("/email-validation-required");
    } else return authErrorMessage(error);
  }

  return (
    <AuthMethodsCard namespace="login" form={form} onSubmit={onSubmit}>
      <PasswordFormField
        control={form.control}
        name="password"
        label={t("password")}
        autoComplete="current-password"
        labelAside={<ForgotPasswordLink />}
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
    </AuthMethodsCard>
  );
}

/** Nothing when the instance disabled password reset. */
function ForgotPasswordLink() {
  const t = useTranslations("login");
  const config = useAppConfig();
  if (!config.auth.isPasswordResetEnabled) return null;
  return (
    <Link href="/request-password-reset" className="text-muted-foreground text-sm hover:underline">
      {t("forgotPassword")}
    </Link>
  );
}
