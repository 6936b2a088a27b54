"use client";
import { PowerIcon, PowerOffIcon, SearchXIcon, Trash2Icon, WebhookIcon } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { usePageTitle } from "@/modules/i18n/use-page-title";
import { isNotFoundError } from "@/modules/shared/api/api-client";
import { emailCallbackPath, isWithinPath, WEBHOOK_DOCS_VERIFY_HREF } from "@/modules/shared/app-paths";
import { cn } from "@/modules/shared/cn";
// The detail of one email callback: a link back to the list,
// the address with a copy button and the "Disabled" badge, the webhook URL with a link to how to verify
// webhooks, "Send test mail", enable / disable and delete buttons, and the Inbox and Settings tabs. An
// unknown id shows a not-found state.
import { EmptyState } from "@/modules/shared/components/empty-state";
import { LoadError } from "@/modules/shared/components/load-error";
import { PageHeading } from "@/modules/shared/components/page-heading";
import { toUnicodeAddress } from "@/modules/shared/domain-names";
import type { ApiEmailCallback } from "../email-callbacks.models";
import { useEmailCallback } from "../email-callbacks.queries";
import { CopyAddressButton } from "./copy-address-button";
import { DisabledBadge } from "./disabled-badge";
import { useEmailCallbackActions } from "./use-email-callback-actions";

export function EmailCallbackDetailLayout({
  emailCallbackId,
  actions,
  children,
}: {
  emailCallbackId: string;
  /** Shown first among the address's buttons (the inbox's "Send test mail", from the page). */
  actions?: ReactNode;
  children: ReactNode;
}) {
  const t = useTranslations("emailCallbacks.detail");
  const query = useEmailCallback(emailCallbackId);

  if (!query.data && query.isError && isNotFoundError(query.error)) return <EmailCallbackNotFound />;
  return (
    <div className="flex flex-col gap-6">
      <PageHeading back={{ href: "/email-callbacks", label: t("back") }}>
        {query.data ? <EmailCallbackHeader emailCallback={query.data} actions={actions} /> : null}
      </PageHeading>
      {query.data ? (
        <>
          <EmailCallbackTabs emailCallbackId={emailCallbackId} />
          {children}
        </>
      ) : query.isError ? (
        <LoadError message={t("loadError")} onRetry={() => query.refetch()} />
      ) : (
        <EmailCallbackHeaderSkeleton />
      )}
    </div>
  );
}

function EmailCallbackHeader({ emailCallback, actions }: { emailCallback: ApiEmailCallback; actions: ReactNode }) {
  const t = useTranslations("emailCallbacks.detail");
  const tWebhookDocs = useTranslations("webhookDocs");
  const router = useRouter();
  const { setEnabled, deleteWithConfirmation, isUpdating, isDeleting, confirmDialog } = useEmailCallbackActions();

  async function deleteEmailCallback() {
    if (await deleteWithConfirmation(emailCallback)) router.push("/");
  }

  return (
    <div className="flex w-full flex-wrap items-start justify-between gap-4">
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <h1 className="text-xl font-semibold tracking-tight break-all sm:text-2xl">
            {toUnicodeAddress(emailCallback.address)}
          </h1>
          <CopyAddressButton address={emailCallback.address} className="text-muted-foreground" />
          {emailCallback.isEnabled ? null : <DisabledBadge />}
        </div>
        <p className="text-muted-foreground flex min-w-0 items-center gap-1.5 text-sm">
          <WebhookIcon aria-hidden className="size-4 shrink-0" />
          <span className="sr-only">{t("webhookUrl")}</span>
          <span className="truncate" title={emailCallback.webhookUrl}>
            {emailCallback.webhookUrl}
          </span>
          <span aria-hidden className="shrink-0">
            ·
          </span>
          <Link href={WEBHOOK_DOCS_VERIFY_HREF} className="hover:text-foreground shrink-0 underline underline-offset-4">
            {tWebhookDocs("verifyLink")}
          </Link>
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {actions}
        <Button variant="outline" disabled={isUpdating} onClick={() => void setEnabled(emailCallback, !emailCallback.isEnabled)}>
          {emailCallback.isEnabled ? <PowerOffIcon aria-hidden /> : <PowerIcon aria-hidden />}
          {emailCallback.isEnabled ? t("disable") : t("enable")}
        </Button>
        <Button
          variant="outline"
          disabled={isDeleting}
          onClick={() => void deleteEmailCallback()}
          className="text-destructive hover:text-destructive"
        >
          <Trash2Icon aria-hidden />
          {t("delete")}
        </Button>
      </div>
      {confirmDialog}
    </div>
  );
}

function EmailCallbackTabs({ emailCallbackId }: { emailCallbackId: string }) {
  const t = useTranslations("emailCallbacks.detail.tabs");
  const pathname = usePathname();
  const tabs = [
    { href: emailCallbackPath(emailCallbackId, "inbox"), label: t("inbox") },
    { href: emailCallbackPath(emailCallbackId, "settings"), label: t("settings") },
  ];
  return (
    <nav aria-label={t("label")} className="bg-muted text-muted-foreground inline-flex h-9 w-fit items-center rounded-lg p-[3px]">
      {tabs.map((tab) => {
        // A mail's page lies within the inbox: the Inbox tab stays the current one there.
        const isActive = isWithinPath(pathname, tab.href);
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={isActive ? "page" : undefined}
            className={cn(
              "focus-visible:ring-ring/50 inline-flex h-full items-center rounded-md px-4 text-sm font-medium transition-[color,box-shadow] outline-none focus-visible:ring-[3px]",
              isActive ? "bg-background text-foreground shadow-sm" : "hover:text-foreground",
            )}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}

function EmailCallbackNotFound() {
  const t = useTranslations("emailCallbacks.detail.notFound");
  usePageTitle("emailNotFound");
  return (
    <EmptyState
      icon={SearchXIcon}
      title={t("title")}
      description={t("description")}
      action={
        <Button asChild>
          <Link href="/email-callbacks">{t("backToEmails")}</Link>
        </Button>
      }
    />
  );
}

function EmailCallbackHeaderSkeleton() {
  const t = useTranslations("common");
  return (
    <div className="flex flex-col gap-6" role="status" aria-busy="true" aria-label={t("loading")}>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex flex-col gap-2">
          <Skeleton className="h-8 w-72" />
          <Skeleton className="h-5 w-56" />
        </div>
        <div className="flex gap-2">
          <Skeleton className="h-9 w-28" />
          <Skeleton className="h-9 w-24" />
        </div>
      </div>
      <Skeleton className="h-9 w-44 rounded-lg" />
    </div>
  );
}
