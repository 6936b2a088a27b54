"use client";
// The Domains page: the add form, the user's domains (each with its status, last check and DNS
// records) or an empty state inviting to add one, and "where would this address go?".
import { GlobeIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { Spinner } from "@/components/ui/spinner";
import { EmptyState } from "@/modules/shared/components/empty-state";
import { LoadError } from "@/modules/shared/components/load-error";
import { PageHeading } from "@/modules/shared/components/page-heading";
import { useDomainsQuery } from "../domains.queries";
import { AddDomainForm } from "./add-domain-form";
import { DomainCard } from "./domain-card";
import { DomainRoutePreview } from "./domain-route-preview";

export function DomainList() {
  const t = useTranslations("domains");
  const tCommon = useTranslations("common");
  const query = useDomainsQuery();
  const domains = query.data?.domains ?? [];

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <PageHeading back={{ href: "/", label: t("back") }} title={t("list.title")} description={t("list.description")} />
      <AddDomainForm />
      {query.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner className="size-6" aria-label={tCommon("loading")} />
        </div>
      ) : query.isError ? (
        <LoadError message={t("list.loadError")} onRetry={() => void query.refetch()} />
      ) : domains.length > 0 ? (
        domains.map((domain) => <DomainCard key={domain.id} domain={domain} />)
      ) : (
        <EmptyState icon={GlobeIcon} headingLevel={2} title={t("list.empty.title")} description={t("list.empty.description")} />
      )}
      <DomainRoutePreview />
    </div>
  );
}
