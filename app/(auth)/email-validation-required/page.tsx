import { EmailValidationRequired } from "@/modules/auth/components/email-validation-required";

export default function EmailValidationRequiredPage() {
  return <EmailValidationRequired />;
}
