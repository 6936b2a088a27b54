import { RegisterForm } from "@/modules/auth/components/register-form";

export default function RegisterPage() {
  return <RegisterForm />;
}
