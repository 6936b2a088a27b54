import { answerDomainList } from "@/modules/domains/domains.answers";
import { domainQueryKeys } from "@/modules/domains/domains.query-keys";
import { EmailCallbackSettings } from "@/modules/email-callbacks/components/email-callback-settings";
import { pageTitle } from "@/modules/i18n/page-title";
import { PageData } from "@/modules/server/page-data";

export const generateMetadata = pageTitle("emailSettings");

/** The user's domains come with the page: the form's domain select offers them from its first render. */
export default async function EmailCallbackSettingsPage({ params }: { params: Promise<{ emailCallbackId: string }> }) {
  const { emailCallbackId } = await params;
  return (
    <PageData
      queries={({ caller, services }) => [
        { queryKey: domainQueryKeys.list(), answer: () => answerDomainList({ userId: caller.userId, services }) },
      ]}
    >
      <EmailCallbackSettings emailCallbackId={emailCallbackId} />
    </PageData>
  );
}
