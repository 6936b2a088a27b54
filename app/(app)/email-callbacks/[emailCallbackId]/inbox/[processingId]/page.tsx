import { pageTitle } from "@/modules/i18n/page-title";
import { MessagePage } from "@/modules/processings/components/message-page";
import { answerProcessingDetail } from "@/modules/processings/processings.answers";
import { processingQueryKeys } from "@/modules/processings/processings.query-keys";
import { PageData } from "@/modules/server/page-data";

export const generateMetadata = pageTitle("message");

export default async function EmailProcessingPage({
  params,
}: {
  params: Promise<{ emailCallbackId: string; processingId: string }>;
}) {
  const { emailCallbackId, processingId } = await params;
  return (
    <PageData
      queries={({ caller, services }) => [
        {
          queryKey: processingQueryKeys.detail(emailCallbackId, processingId),
          // The message page's form of the mail: its webhook body shortened (useEmailProcessing).
          answer: () =>
            answerProcessingDetail({ emailCallbackId, processingId, userId: caller.userId, isShortened: true, services }),
        },
      ]}
    >
      <MessagePage emailCallbackId={emailCallbackId} processingId={processingId} />
    </PageData>
  );
}
