import { answerDomainList } from "@/modules/domains/domains.answers";
import { domainQueryKeys } from "@/modules/domains/domains.query-keys";
import { EmailCallbackSettings } from "@/modules/email-callbacks/components/email-callback-settings";
import { EndpointList } from "@/modules/endpoints/components/endpoint-list";
import { answerEndpointList } from "@/modules/endpoints/endpoints.answers";
import { endpointQueryKeys } from "@/modules/endpoints/endpoints.query-keys";
import { pageTitle } from "@/modules/i18n/page-title";
import { PageData } from "@/modules/server/page-data";

export const generateMetadata = pageTitle("emailSettings");

/**
 * The address's form, then its destinations. The user's domains come with the page (the form's
 * domain select offers them from its first render), and so do the address's endpoints.
 */
export default async function EmailCallbackSettingsPage({ params }: { params: Promise<{ emailCallbackId: string }> }) {
  const { emailCallbackId } = await params;
  return (
    <PageData
      queries={({ caller, services }) => [
        { queryKey: domainQueryKeys.list(), answer: () => answerDomainList({ userId: caller.userId, services }) },
        {
          queryKey: endpointQueryKeys.list(emailCallbackId),
          answer: () =>
            answerEndpointList({ emailCallbackId, caller: { userId: caller.userId, planId: caller.user.planId }, services }),
        },
      ]}
    >
      <div className="flex flex-col gap-6">
        <EmailCallbackSettings emailCallbackId={emailCallbackId} />
        <EndpointList emailCallbackId={emailCallbackId} />
      </div>
    </PageData>
  );
}
