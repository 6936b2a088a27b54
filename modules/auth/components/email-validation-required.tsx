// Shown after registering or logging in with an address not verified yet: check the inbox, or have
// the verification mail sent again.
import { MailCheckIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ResendVerificationEmail } from "./resend-verification-email";

export function EmailValidationRequired() {
  const t = useTranslations("emailValidationRequired");
  return (
    <Card className="w-full max-w-sm">
      <CardHeader>
        <MailCheckIcon className="text-muted-foreground mb-2 size-8" aria-hidden />
        <CardTitle className="text-xl">{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <p className="text-muted-foreground text-sm">{t("checkInbox")}</p>
        <ResendVerificationEmail />
        <Button asChild variant="outline" className="w-full">
          <Link href="/login">{t("backToLogin")}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
