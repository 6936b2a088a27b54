import { EmailCallbackList } from "@/modules/email-callbacks/components/email-callback-list";

export default function EmailCallbacksPage() {
  return <EmailCallbackList />;
}
