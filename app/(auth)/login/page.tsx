import { LoginForm } from "@/modules/auth/components/login-form";

export default function LoginPage() {
  return <LoginForm />;
}
