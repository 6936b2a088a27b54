"use client";
// How many of the plan's addresses are used ("2 of 10 emails"), shown where addresses are listed
// and created, and at the limit a notice that fits the instance: delete one to create another, or
// (a free user on an instance with billing) upgrade, with the Upgrade button beside it.
import { useTranslations } from "next-intl";
import { useSession } from "@/modules/auth/use-session";
import { useIsBillingEnabled } from "@/modules/billing/billing.queries";
import { UpgradeButton } from "@/modules/billing/components/upgrade-button";
import { PLAN_ID } from "@/modules/plans/plans.constants";
import type { EmailCallbackList } from "../email-callbacks.queries";

export const isAtEmailCallbackLimit = ({ emailCallbacks, maxEmailCallbacks }: EmailCallbackList) =>
  emailCallbacks.length >= maxEmailCallbacks;

export function EmailCallbackUsage({ list }: { list: EmailCallbackList }) {
  const t = useTranslations("emailCallbacks.usage");
  return (
    <p className="text-muted-foreground text-sm tabular-nums">
      {t("count", { count: list.emailCallbacks.length, max: list.maxEmailCallbacks })}
    </p>
  );
}

export function EmailCallbackLimitNotice({ maxEmailCallbacks }: { maxEmailCallbacks: number }) {
  const t = useTranslations("emailCallbacks.usage");
  const { data: session } = useSession();
  const isBillingEnabled = useIsBillingEnabled();
  const planId = session?.user.planId ?? PLAN_ID.FREE;
  const canUpgrade = isBillingEnabled && planId === PLAN_ID.FREE;
  return (
    <div
      role="status"
      className="bg-muted/50 flex flex-col gap-3 rounded-lg border px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <p>{t(canUpgrade ? "limitReachedUpgrade" : "limitReached", { max: maxEmailCallbacks })}</p>
      {canUpgrade ? (
        <div className="shrink-0">
          <UpgradeButton planId={planId} />
        </div>
      ) : null}
    </div>
  );
}
