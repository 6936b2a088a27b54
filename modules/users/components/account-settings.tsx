"use client";
// Account settings: the read-only email address, the editable full name and
// managing the subscription (when billing is on) and logging out.
import { ArrowLeftIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useAnalytics } from "@/modules/analytics/use-analytics";
import { authClient } from "@/modules/auth/auth.client";
import { ManageSubscriptionCard } from "@/modules/billing/components/manage-subscription-card";
import { FullNameCard } from "./full-name-card";

export function AccountSettings({ user }: { user: { email: string; name: string } }) {
  const t = useTranslations("settings");
  const [isLoggingOut, setIsLoggingOut] = useState(false);
  const analytics = useAnalytics();

  async function logOut() {
    setIsLoggingOut(true);
    analytics.captureLogout();
    await authClient.signOut();
    analytics.reset();
    window.location.assign("/login");
  }

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      <div className="flex flex-col items-start gap-2">
        <Button variant="ghost" size="sm" asChild className="-ml-3">
          <Link href="/">
            <ArrowLeftIcon aria-hidden />
            {t("back")}
          </Link>
        </Button>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t("email.title")}</CardTitle>
          <CardDescription>{t("email.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Input aria-label={t("email.title")} value={user.email} readOnly disabled />
        </CardContent>
      </Card>
      <FullNameCard currentName={user.name} />
      <ManageSubscriptionCard />
      <Card>
        <CardHeader>
          <CardTitle>{t("logout.title")}</CardTitle>
          <CardDescription>{t("logout.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={logOut} disabled={isLoggingOut}>
            {isLoggingOut ? <Spinner /> : null}
            {t("logout.button")}
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
