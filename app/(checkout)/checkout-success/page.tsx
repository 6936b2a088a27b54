import { Suspense } from "react";
import { CheckoutSuccess } from "@/modules/billing/components/checkout-success";
import { PublicLayout } from "@/modules/app-shell/components/public-layout";

export default function CheckoutSuccessPage() {
  return (
    <PublicLayout>
      <Suspense fallback={null}>
        <CheckoutSuccess />
      </Suspense>
    </PublicLayout>
  );
}
