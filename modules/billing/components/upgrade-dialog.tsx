"use client";
// The upgrade dialog: free versus pro side by side, the sponsor and
// contact links, and the checkout button that opens the payment page in a new tab. Back in this tab
// after checkout, the dialog closes and the plan is read again.
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ActionDialog } from "@/modules/shared/components/action-dialog";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { type BillingConfig, CHECKOUT_PLAN_ID, useCreateCheckoutSessionMutation } from "../billing.queries";
import { BILLING_LINKS, openInNewTab } from "./billing-links.constants";
import { useCheckoutReturn } from "./use-checkout-return";

type UpgradeDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; plans: BillingConfig["plans"] };

export function UpgradeDialog({ open, onOpenChange, plans }: UpgradeDialogProps) {
  const t = useTranslations("billing.upgrade");
  const toast = useToast();
  const tCommon = useTranslations("common");
  const checkout = useCreateCheckoutSessionMutation();
  const awaitCheckoutReturn = useCheckoutReturn(() => onOpenChange(false));

  function startCheckout() {
    checkout.mutate(
      { planId: CHECKOUT_PLAN_ID },
      {
        onSuccess: ({ checkoutUrl }) => {
          openInNewTab(checkoutUrl);
          awaitCheckoutReturn();
        },
        onError: () => toast.error(t("checkoutError")),
      },
    );
  }

  const rows = [
    { label: t("rows.maxEmails"), free: String(plans.free.maxEmails), pro: String(plans.pro.maxEmails) },
    { label: t("rows.ingestionLimit"), free: t("unlimited"), pro: t("unlimited") },
    {
      label: t("rows.retention"),
      free: t("retentionDays", { days: plans.free.retentionDays }),
      pro: t("retentionDays", { days: plans.pro.retentionDays }),
    },
    { label: t("rows.support"), free: t("support.community"), pro: t("support.email") },
    {
      label: t("rows.price"),
      free: t("pricePerMonth", { price: plans.free.priceUsdMonthly }),
      pro: t("pricePerMonth", { price: plans.pro.priceUsdMonthly }),
    },
  ];

  return (
    <ActionDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("title")}
      description={t("description", { count: plans.free.maxEmails })}
      className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-lg"
      closeLabel={tCommon("close")}
      dismissLabel={t("cancel")}
      action={
        <Button onClick={startCheckout} disabled={checkout.isPending}>
          {checkout.isPending ? <Spinner aria-label={t("checkoutLoading")} /> : null}
          {t("checkout")}
        </Button>
      }
    >
      <Table aria-label={t("comparison")}>
        <TableHeader>
          <TableRow>
            <TableHead>
              <span className="sr-only">{t("feature")}</span>
            </TableHead>
            <TableHead className="whitespace-normal">{t("plans.free")}</TableHead>
            <TableHead className="text-primary whitespace-normal">{t("plans.pro")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.label}>
              <TableHead scope="row" className="text-muted-foreground font-normal whitespace-normal">
                {row.label}
              </TableHead>
              <TableCell className="whitespace-normal">{row.free}</TableCell>
              <TableCell className="font-medium whitespace-normal">{row.pro}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <p className="text-muted-foreground text-sm">
        {t.rich("links", {
          sponsor: (chunks) => (
            <a
              href={BILLING_LINKS.SPONSOR_URL}
              target="_blank"
              rel="noopener noreferrer"
              className="text-foreground underline underline-offset-4"
            >
              {chunks}
            </a>
          ),
          contact: (chunks) => (
            <a href={BILLING_LINKS.CONTACT_URL} className="text-foreground underline underline-offset-4">
              {chunks}
            </a>
          ),
        })}
      </p>
    </ActionDialog>
  );
}
