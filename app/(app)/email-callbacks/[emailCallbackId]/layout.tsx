import type { ReactNode } from "react";
import { EmailCallbackDetailLayout } from "@/modules/email-callbacks/components/email-callback-detail-layout";
import { SendTestMailButton } from "@/modules/processings/components/send-test-mail-button";

export default async function EmailCallbackLayout({
  params,
  children,
}: {
  params: Promise<{ emailCallbackId: string }>;
  children: ReactNode;
}) {
  const { emailCallbackId } = await params;
  return (
    <EmailCallbackDetailLayout
      emailCallbackId={emailCallbackId}
      actions={<SendTestMailButton emailCallbackId={emailCallbackId} />}
    >
      {children}
    </EmailCallbackDetailLayout>
  );
}
