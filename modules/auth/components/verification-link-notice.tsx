// /verify-email, where every verification link comes back (VERIFY_EMAIL_PATH) when it did not sign
// the visitor in: a link that had already been used (its address is verified: the way on is to log
// in), or anything else, which is an invalid or expired link (a new one can be sent from here).
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { LoginLinkCard } from "./auth-card";
import { AuthNoticeCard } from "./auth-notice-card";
import { ResendVerificationEmail } from "./resend-verification-email";

export function VerificationLinkNotice({ isVerified }: { isVerified: boolean }) {
  const t = useTranslations("verifyEmail");
  if (isVerified) {
    return <LoginLinkCard title={t("used.title")} description={t("used.description")} linkLabel={t("used.logIn")} />;
  }
  return (
    <AuthNoticeCard title={t("invalid.title")} description={t("invalid.description")} contentClassName="flex flex-col gap-4">
      <ResendVerificationEmail isAddressShown={false} />
      <Button asChild variant="outline" className="w-full">
        <Link href="/login">{t("invalid.backToLogin")}</Link>
      </Button>
    </AuthNoticeCard>
  );
}
