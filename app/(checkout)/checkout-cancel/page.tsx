import { PublicLayout } from "@/modules/app-shell/components/public-layout";
import { CheckoutCancel } from "@/modules/billing/components/checkout-cancel";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("checkoutCancel");

export default function CheckoutCancelPage() {
  return (
    <PublicLayout>
      <CheckoutCancel />
    </PublicLayout>
  );
}
