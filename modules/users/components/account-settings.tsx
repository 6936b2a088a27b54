"use client";
// Account settings: the read-only email address, the editable full name, delivery alerts on or off,
// managing the subscription (when billing is on) and logging out.
import { ArrowLeftIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { ManageSubscriptionCard } from "@/modules/billing/components/manage-subscription-card";
import { TitledCard } from "@/modules/shared/components/titled-card";
import { DeliveryAlertsCard } from "./delivery-alerts-card";
import { FullNameCard } from "./full-name-card";
import { useLogOut } from "./use-log-out";

export function AccountSettings({ user }: { user: { email: string; name: string; planId?: string | null } }) {
  const t = useTranslations("settings");
  const { logOut, isLoggingOut } = useLogOut();

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
      <TitledCard title={t("email.title")} description={t("email.description")}>
        <Input aria-label={t("email.title")} value={user.email} readOnly className="bg-muted/40 text-foreground" />
      </TitledCard>
      <FullNameCard currentName={user.name} />
      <DeliveryAlertsCard />
      <ManageSubscriptionCard planId={user.planId} />
      <TitledCard title={t("logout.title")} description={t("logout.description")}>
        <Button variant="outline" onClick={logOut} disabled={isLoggingOut}>
          {isLoggingOut ? <Spinner /> : null}
          {t("logout.button")}
        </Button>
      </TitledCard>
    </div>
  );
}
