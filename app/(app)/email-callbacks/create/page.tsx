import { CreateEmailCallback } from "@/modules/email-callbacks/components/create-email-callback";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("newEmail");

export default function CreateEmailCallbackPage() {
  return <CreateEmailCallback />;
}
