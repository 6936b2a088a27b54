import { CheckoutCancel } from "@/modules/billing/components/checkout-cancel";
import { PublicLayout } from "@/modules/app-shell/components/public-layout";

export default function CheckoutCancelPage() {
  return (
    <PublicLayout>
      <CheckoutCancel />
    </PublicLayout>
  );
}
