"use client";
// The top bar's "Upgrade to pro" button: free users only, and only when billing
// is on. It opens the upgrade dialog, which closes itself when the user comes back from checkout.
import { SparklesIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { PLAN_ID } from "@/modules/plans/plans.constants";
import { useBillingConfigQuery } from "../billing.queries";
import { UpgradeDialog } from "./upgrade-dialog";

export function UpgradeButton({ planId }: { planId: string | null | undefined }) {
  const t = useTranslations("billing.upgrade");
  const [isOpen, setIsOpen] = useState(false);
  const { data: billingConfig } = useBillingConfigQuery();
  const isFree = (planId ?? PLAN_ID.FREE) === PLAN_ID.FREE;
  if (!isFree || !billingConfig) return null;

  return (
    <>
      <Button size="sm" onClick={() => setIsOpen(true)}>
        <SparklesIcon aria-hidden />
        {t("button")}
      </Button>
      <UpgradeDialog open={isOpen} onOpenChange={setIsOpen} plans={billingConfig.plans} />
    </>
  );
}
