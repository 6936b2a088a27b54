import { RegisterForm } from "@/modules/auth/components/register-form";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("register");

export default function RegisterPage() {
  return <RegisterForm />;
}
