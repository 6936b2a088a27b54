import { EmailValidationRequired } from "@/modules/auth/components/email-validation-required";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("emailValidationRequired");

export default function EmailValidationRequiredPage() {
  return <EmailValidationRequired />;
}
