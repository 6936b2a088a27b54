import { pageTitle } from "@/modules/i18n/page-title";
import { EmailCallbackInbox } from "@/modules/processings/components/email-callback-inbox";

export const generateMetadata = pageTitle("inbox");

export default async function EmailCallbackInboxPage({ params }: { params: Promise<{ emailCallbackId: string }> }) {
  const { emailCallbackId } = await params;
  return <EmailCallbackInbox emailCallbackId={emailCallbackId} />;
}
