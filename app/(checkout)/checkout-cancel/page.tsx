import { PublicLayout } from "@/modules/app-shell/components/public-layout";
import { CheckoutCancel } from "@/modules/billing/components/checkout-cancel";

export default function CheckoutCancelPage() {
  return (
    <PublicLayout>
      <CheckoutCancel />
    </PublicLayout>
  );
}
