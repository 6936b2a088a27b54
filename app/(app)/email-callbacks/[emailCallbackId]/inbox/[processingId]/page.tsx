import { EndpointDeliveries } from "@/modules/endpoints/components/endpoint-deliveries";
import { answerEndpointList } from "@/modules/endpoints/endpoints.answers";
import { endpointQueryKeys } from "@/modules/endpoints/endpoints.query-keys";
import { pageTitle } from "@/modules/i18n/page-title";
import { MessagePage } from "@/modules/processings/components/message-page";
import { answerDeliveryAttempts, answerProcessingDetail } from "@/modules/processings/processings.answers";
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
        {
          // The attempts the header counts (useDeliveryAttempts: the list itself, not the API's wrapper).
          queryKey: processingQueryKeys.attempts(emailCallbackId, processingId),
          answer: async () =>
            (await answerDeliveryAttempts({ emailCallbackId, processingId, userId: caller.userId, services })).deliveryAttempts,
        },
        {
          // The endpoints that name a mail's deliveries when it went to several.
          queryKey: endpointQueryKeys.list(emailCallbackId),
          answer: () =>
            answerEndpointList({ emailCallbackId, caller: { userId: caller.userId, planId: caller.user.planId }, services }),
        },
      ]}
    >
      <MessagePage
        emailCallbackId={emailCallbackId}
        processingId={processingId}
        endpointDeliveries={<EndpointDeliveries emailCallbackId={emailCallbackId} processingId={processingId} />}
      />
    </PageData>
  );
}
