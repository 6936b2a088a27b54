import { pageTitle } from "@/modules/i18n/page-title";
import { MessagePage } from "@/modules/processings/components/message-page";

export const generateMetadata = pageTitle("message");

export default async function EmailProcessingPage({
  params,
}: {
  params: Promise<{ emailCallbackId: string; processingId: string }>;
}) {
  const { emailCallbackId, processingId } = await params;
  return <MessagePage emailCallbackId={emailCallbackId} processingId={processingId} />;
}
