import { EmailCallbackSettings } from "@/modules/email-callbacks/components/email-callback-settings";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("emailSettings");

export default async function EmailCallbackSettingsPage({ params }: { params: Promise<{ emailCallbackId: string }> }) {
  const { emailCallbackId } = await params;
  return <EmailCallbackSettings emailCallbackId={emailCallbackId} />;
}
