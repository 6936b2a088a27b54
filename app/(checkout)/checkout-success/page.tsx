import { Suspense } from "react";
import { PublicLayout } from "@/modules/app-shell/components/public-layout";
import { CheckoutSuccess } from "@/modules/billing/components/checkout-success";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("checkoutSuccess");

export default function CheckoutSuccessPage() {
  return (
    <PublicLayout>
      <Suspense fallback={null}>
        <CheckoutSuccess />
      </Suspense>
    </PublicLayout>
  );
}
