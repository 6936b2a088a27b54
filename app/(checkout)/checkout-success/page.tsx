import { notFound } from "next/navigation";
import { Suspense } from "react";
import { PublicLayout } from "@/modules/app-shell/components/public-layout";
import { CheckoutSuccess } from "@/modules/billing/components/checkout-success";
import { getConfig } from "@/modules/config/config";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = () => pageTitle(getConfig().billing.isEnabled ? "checkoutSuccess" : "notFound")();

// Signed-out visitors are sent to log in (proxy.ts); an instance without billing has no such page.
export default function CheckoutSuccessPage() {
  if (!getConfig().billing.isEnabled) notFound();
  return (
    <PublicLayout>
      <Suspense fallback={null}>
        <CheckoutSuccess />
      </Suspense>
    </PublicLayout>
  );
}
