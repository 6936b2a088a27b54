import { CheckoutCancel } from "@/modules/billing/components/checkout-cancel";
import { PublicLayout } from "@/modules/shared/components/public-layout";

export default function CheckoutCancelPage() {
  return (
    <PublicLayout>
      <CheckoutCancel />
    </PublicLayout>
  );
}
