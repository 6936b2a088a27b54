import { answerDomainList } from "@/modules/domains/domains.answers";
import { domainQueryKeys } from "@/modules/domains/domains.query-keys";
import { CreateEmailCallback } from "@/modules/email-callbacks/components/create-email-callback";
import { pageTitle } from "@/modules/i18n/page-title";
import { PageData } from "@/modules/server/page-data";

export const generateMetadata = pageTitle("newEmail");

/** The user's domains come with the page: the form's domain select offers them from its first render. */
export default function CreateEmailCallbackPage() {
  return (
    <PageData
      queries={({ caller, services }) => [
        { queryKey: domainQueryKeys.list(), answer: () => answerDomainList({ userId: caller.userId, services }) },
      ]}
    >
      <CreateEmailCallback />
    </PageData>
  );
}
