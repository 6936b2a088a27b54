import type { ReactNode } from "react";
import { EmailCallbackDetailLayout } from "@/modules/email-callbacks/components/email-callback-detail-layout";
import { answerEmailCallback } from "@/modules/email-callbacks/email-callbacks.answers";
import { emailCallbackQueryKeys } from "@/modules/email-callbacks/email-callbacks.query-keys";
import { SendTestMailButton } from "@/modules/processings/components/send-test-mail-button";
import { PageData } from "@/modules/server/page-data";

export default async function EmailCallbackLayout({
  params,
  children,
}: {
  params: Promise<{ emailCallbackId: string }>;
  children: ReactNode;
}) {
  const { emailCallbackId } = await params;
  return (
    <PageData
      queries={({ caller, services }) => [
        {
          queryKey: emailCallbackQueryKeys.detail(emailCallbackId),
          answer: async () => (await answerEmailCallback({ emailCallbackId, userId: caller.userId, services })).emailCallback,
        },
      ]}
    >
      <EmailCallbackDetailLayout
        emailCallbackId={emailCallbackId}
        actions={<SendTestMailButton emailCallbackId={emailCallbackId} />}
      >
        {children}
      </EmailCallbackDetailLayout>
    </PageData>
  );
}
