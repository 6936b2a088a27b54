import { RequestPasswordResetForm } from "@/modules/auth/components/request-password-reset-form";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("requestPasswordReset");

export default function RequestPasswordResetPage() {
  return <RequestPasswordResetForm />;
}
