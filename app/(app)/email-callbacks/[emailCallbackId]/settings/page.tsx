import { EmailCallbackSettings } from "@/modules/email-callbacks/components/email-callback-settings";

export default async function EmailCallbackSettingsPage({ params }: { params: Promise<{ emailCallbackId: string }> }) {
  const { emailCallbackId } = await params;
  return <EmailCallbackSettings emailCallbackId={emailCallbackId} />;
}
