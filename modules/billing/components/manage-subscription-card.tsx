"use client";
// The settings card "Manage subscription": opens the billing portal in a new tab. Shown only when
// billing is on and the user has a subscription (the pro plan); the button's loading state ends after 1 s.
import { ExternalLinkIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { PLAN_ID } from "@/modules/plans/plans.constants";
import { TitledCard } from "@/modules/shared/components/titled-card";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { fetchCustomerPortalUrl, useIsBillingEnabled } from "../billing.queries";
import { openInNewTab } from "./billing-links.constants";

export const PORTAL_BUTTON_LOADING_MS = 1000;

export function ManageSubscriptionCard({ planId }: { planId: string | null | undefined }) {
  const t = useTranslations("billing.subscription");
  const toast = useToast();
  const isBillingEnabled = useIsBillingEnabled();
  const [isLoading, setIsLoading] = useState(false);

  async function openPortal() {
    setIsLoading(true);
    window.setTimeout(() => setIsLoading(false), PORTAL_BUTTON_LOADING_MS);
    try {
      const { portalUrl } = await fetchCustomerPortalUrl();
      openInNewTab(portalUrl);
    } catch {
      toast.error(t("portalError"));
    }
  }

  if (!isBillingEnabled || planId !== PLAN_ID.PRO) return null;
  return (
    <TitledCard title={t("title")} description={t("description")}>
      <Button variant="outline" onClick={openPortal} disabled={isLoading}>
        {isLoading ? <Spinner aria-hidden /> : <ExternalLinkIcon aria-hidden />}
        {t("button")}
      </Button>
    </TitledCard>
  );
}
