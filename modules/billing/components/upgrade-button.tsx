"use client";
// The top bar's "Upgrade to pro" button: free users only, and only when billing
// is on. It opens the upgrade dialog, whose code loads on first use (hover, focus or press), not
// with the page; once opened it stays mounted, so that it can close itself when the user comes back
// from checkout.
import { SparklesIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { createLazyModule, preloadLazyModule, useLazyModule } from "@/components/ui/lazy-primitive";
import { PLAN_ID } from "@/modules/plans/plans.constants";
import { useBillingConfigQuery } from "../billing.queries";

const upgradeDialogModule = createLazyModule(() => import("./upgrade-dialog"));
const preloadUpgradeDialog = () => preloadLazyModule(upgradeDialogModule);

export function UpgradeButton({ planId }: { planId: string | null | undefined }) {
  const t = useTranslations("billing.upgrade");
  const [isOpen, setIsOpen] = useState(false);
  const [hasOpened, setHasOpened] = useState(false);
  const dialogModule = useLazyModule(upgradeDialogModule, hasOpened);
  const { data: billingConfig } = useBillingConfigQuery();
  const isFree = (planId ?? PLAN_ID.FREE) === PLAN_ID.FREE;
  if (!isFree || !billingConfig) return null;

  function open() {
    setIsOpen(true);
    setHasOpened(true);
    // The code could not load (the app says so): the next press tries again.
    upgradeDialogModule.load().catch(() => setHasOpened(false));
  }

  return (
    <>
      <Button size="sm" onClick={open} onPointerEnter={preloadUpgradeDialog} onFocus={preloadUpgradeDialog}>
        <SparklesIcon aria-hidden />
        {t("button")}
      </Button>
      {dialogModule ? <dialogModule.UpgradeDialog open={isOpen} onOpenChange={setIsOpen} plans={billingConfig.plans} /> : null}
    </>
  );
}
