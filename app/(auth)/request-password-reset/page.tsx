import { RequestPasswordResetForm } from "@/modules/auth/components/request-password-reset-form";

export default function RequestPasswordResetPage() {
  return <RequestPasswordResetForm />;
}
