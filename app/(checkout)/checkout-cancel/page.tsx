import { notFound } from "next/navigation";
import { PublicLayout } from "@/modules/app-shell/components/public-layout";
import { CheckoutCancel } from "@/modules/billing/components/checkout-cancel";
import { getConfig } from "@/modules/config/config";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = () => pageTitle(getConfig().billing.isEnabled ? "checkoutCancel" : "notFound")();

// Signed-out visitors are sent to log in (proxy.ts); an instance without billing has no such page.
export default function CheckoutCancelPage() {
  if (!getConfig().billing.isEnabled) notFound();
  return (
    <PublicLayout>
      <CheckoutCancel />
    </PublicLayout>
  );
}
