import { EmailCallbackList } from "@/modules/email-callbacks/components/email-callback-list";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("emails");

export default function EmailCallbacksPage() {
  return <EmailCallbackList />;
}
