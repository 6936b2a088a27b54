import { DomainList } from "@/modules/domains/components/domain-list";
import { answerDomainList } from "@/modules/domains/domains.answers";
import { domainQueryKeys } from "@/modules/domains/domains.query-keys";
import { pageTitle } from "@/modules/i18n/page-title";
import { PageData } from "@/modules/server/page-data";

export const generateMetadata = pageTitle("domains");

export default function DomainsPage() {
  return (
    <PageData
      queries={({ caller, services }) => [
        { queryKey: domainQueryKeys.list(), answer: () => answerDomainList({ userId: caller.userId, services }) },
      ]}
    >
      <DomainList />
    </PageData>
  );
}
