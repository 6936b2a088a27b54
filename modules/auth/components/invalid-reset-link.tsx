"use client";
// /reset-password reached through a reset link that is invalid, expired or already used (better-auth
// sends it back with ?error=INVALID_TOKEN), or whose token the reset refused: says so, with the way
// forward. Nothing while the guard sends the visitor to /login (password reset is off).
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { AuthNoticeCard } from "./auth-notice-card";
import { usePasswordResetGuard } from "./use-password-reset-guard";

export function InvalidResetLink() {
  const t = useTranslations("resetPassword.invalidLink");
  const tAuthErrors = useTranslations("authErrors");
  const isPasswordResetEnabled = usePasswordResetGuard();
  if (!isPasswordResetEnabled) return null;
  return (
    <AuthNoticeCard title={t("title")} description={tAuthErrors("INVALID_TOKEN")}>
      <Button asChild>
        <Link href="/request-password-reset">{t("requestNewLink")}</Link>
      </Button>
      <Button asChild variant="outline">
        <Link href="/login">{t("backToLogin")}</Link>
      </Button>
    </AuthNoticeCard>
  );
}
