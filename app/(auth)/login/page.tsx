import { LoginForm } from "@/modules/auth/components/login-form";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("login");

export default function LoginPage() {
  return <LoginForm />;
}
