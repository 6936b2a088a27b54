"use client";
// One of the user's domains: its name and status, when it was last checked and what the check found
// wrong (one problem a line), the two DNS records to set, "Verify now" and delete (behind a confirmation).
import { RefreshCwIcon, Trash2Icon } from "lucide-react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { useConfirmDialog } from "@/modules/shared/components/confirm-dialog";
import { RelativeTime } from "@/modules/shared/components/relative-time";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { toUnicodeDomainName } from "@/modules/shared/domain-names";
import { readDomainCheckProblems, sayDomainCheckProblem } from "../domain-check-problems";
import { DOMAIN_STATUS } from "../domains.constants";
import type { ApiDomain } from "../domains.models";
import { useDeleteDomainMutation, useVerifyDomainMutation } from "../domains.queries";
import { DomainRecordsTable } from "./domain-records-table";
import { DomainStatusBadge } from "./domain-status-badge";
import { NameBreakingAtDots } from "./name-breaking-at-dots";

export function DomainCard({ domain }: { domain: ApiDomain }) {
  const t = useTranslations("domains.card");
  const sayProblem = useTranslations("domains.problems");
  const { verify, isVerifying } = useVerifyDomain();
  const { deleteDomain, isDeleting, dialog } = useDeleteDomain();
  const headingId = `domain-${domain.id}`;

  return (
    <Card className="gap-4" role="region" aria-labelledby={headingId}>
      <CardHeader>
        {/* min-w-0: a long name wraps inside the card instead of widening the header's grid column. */}
        <div className="flex min-w-0 flex-wrap items-center justify-between gap-2">
          <div className="flex min-w-0 items-center gap-2">
            <h2 id={headingId} className="min-w-0 leading-tight font-semibold [overflow-wrap:anywhere]">
              <NameBreakingAtDots name={toUnicodeDomainName(domain.name)} />
            </h2>
            <DomainStatusBadge status={domain.status} />
          </div>
          <div className="flex items-center gap-1">
            <Button variant="outline" size="sm" disabled={isVerifying} onClick={() => void verify(domain)}>
              {isVerifying ? <Spinner /> : <RefreshCwIcon aria-hidden />}
              {t("verify")}
            </Button>
            <Button
              variant="ghost"
              size="icon-sm"
              className="text-muted-foreground hover:text-destructive"
              aria-label={t("deleteLabel", { name: toUnicodeDomainName(domain.name) })}
              disabled={isDeleting}
              onClick={() => void deleteDomain(domain)}
            >
              {isDeleting ? <Spinner /> : <Trash2Icon aria-hidden />}
            </Button>
          </div>
        </div>
        <CardDescription className="flex min-w-0 flex-col gap-1">
          <span>
            {domain.lastCheckedAt ? (
              <>
                {t("lastCheck")} <RelativeTime date={domain.lastCheckedAt} />
              </>
            ) : (
              t("neverChecked")
            )}
          </span>
          {domain.lastCheckError ? (
            <ul className="text-destructive flex flex-col gap-0.5 [overflow-wrap:anywhere]">
              {readDomainCheckProblems(domain.lastCheckError).map((problem, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the problems of one check, in their order, never reordered
                <li key={index}>{sayDomainCheckProblem(problem, sayProblem)}</li>
              ))}
            </ul>
          ) : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <h3 className="text-sm font-medium">{t("recordsTitle")}</h3>
        <p className="text-muted-foreground text-sm">{t("recordsDescription")}</p>
        <DomainRecordsTable records={domain.records} />
      </CardContent>
      {dialog}
    </Card>
  );
}

/** Checks the records now; the card shows the new status and error, and a toast says how it went. */
function useVerifyDomain() {
  const t = useTranslations("domains.card");
  const toast = useToast();
  const apiErrorMessage = useApiErrorMessage();
  const verifyMutation = useVerifyDomainMutation();

  async function verify(domain: ApiDomain) {
    let checked: ApiDomain;
    try {
      ({ domain: checked } = await verifyMutation.mutateAsync({ domainId: domain.id }));
    } catch (error) {
      toast.error(apiErrorMessage(error));
      return;
    }
    if (checked.status === DOMAIN_STATUS.VERIFIED) toast.success(t("verified", { name: checked.name }));
    else if (checked.status === DOMAIN_STATUS.FAILING) toast.error(t("failing", { name: checked.name }));
    else toast.error(t("notVerified", { name: checked.name }));
  }

  return { verify, isVerifying: verifyMutation.isPending };
}

/** Asks for confirmation, then deletes the domain; a refusal (its addresses: domain.in_use) says why. */
function useDeleteDomain() {
  const t = useTranslations("domains.delete");
  const toast = useToast();
  const apiErrorMessage = useApiErrorMessage();
  const { confirm, dialog } = useConfirmDialog();
  const deleteMutation = useDeleteDomainMutation();

  async function deleteDomain(domain: ApiDomain) {
    const isConfirmed = await confirm({
      title: t("title"),
      description: t("description", { name: toUnicodeDomainName(domain.name) }),
      confirmLabel: t("confirm"),
      cancelLabel: t("cancel"),
      isDestructive: true,
    });
    if (!isConfirmed) return;
    try {
      await deleteMutation.mutateAsync({ domainId: domain.id });
    } catch (error) {
      toast.error(apiErrorMessage(error));
      return;
    }
    toast.success(t("success"));
  }

  return { deleteDomain, isDeleting: deleteMutation.isPending, dialog };
}
