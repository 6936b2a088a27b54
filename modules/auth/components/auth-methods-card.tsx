"use client";
// The login and register pages: their card with the sign-in methods, whose email form starts with
// the email field, and a link to the other page; then the legal links.
import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import type { UseFormReturn } from "react-hook-form";
import { useAppConfig } from "@/modules/config/components/config-provider";
import { SubmitForm } from "@/modules/shared/components/submit-form";
import { AuthCard } from "./auth-card";
import { EmailFormField } from "./auth-form-fields";
import { AuthMethods } from "./auth-methods";
import { LegalLinks } from "./legal-links";

/** Each page links to the other one, after a prompt. */
const OTHER_PAGES = {
  login: { href: "/register", prompt: "noAccount", label: "register" },
  register: { href: "/login", prompt: "hasAccount", label: "login" },
} as const;

export function AuthMethodsCard<TValues extends { email: string }>({
  namespace,
  form,
  onSubmit,
  children,
}: {
  /** The page's messages: its title, the email field, the link to the other page and the rest. */
  namespace: "login" | "register";
  form: UseFormReturn<TValues>;
  /** See SubmitForm's onSubmit. */
  onSubmit: (values: TValues) => Promise<string | undefined>;
  /** The email form's fields after the email. */
  children: ReactNode;
}) {
  const t = useTranslations(namespace);
  const otherPage = OTHER_PAGES[namespace];
  // With registration off, the login page offers no way to an account that cannot be made.
  const { isRegistrationEnabled } = useAppConfig().auth;
  const isOtherPageOpen = namespace === "register" || isRegistrationEnabled;
  return (
    <div className="flex w-full max-w-sm flex-col gap-4">
      <AuthCard title={t("title")} description={t("description")}>
        <AuthMethods intent={namespace} emailButtonLabel={t("withEmail")}>
          <SubmitForm form={form} onSubmit={onSubmit} submitLabel={t("submit")}>
            <EmailFormField control={form.control} label={t("email")} placeholder={t("emailPlaceholder")} />
            {children}
          </SubmitForm>
        </AuthMethods>
        {isOtherPageOpen ? (
          <p className="text-muted-foreground mt-6 text-center text-sm">
            {t(otherPage.prompt)}{" "}
            <Link href={otherPage.href} className="text-foreground font-medium hover:underline">
              {t(otherPage.label)}
            </Link>
          </p>
        ) : null}
      </AuthCard>
      <LegalLinks />
    </div>
  );
}
