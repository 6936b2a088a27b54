"use client";
import { MailPlusIcon, PlusIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
// The list of the user's email callbacks: how many of the plan's addresses are used, a create
// button (disabled at the plan's limit, with a notice that says why) and one card per callback, or
// an empty state inviting to create the first one.
import { EmptyState } from "@/modules/shared/components/empty-state";
import { LoadError } from "@/modules/shared/components/load-error";
import { useEmailCallbacks } from "../email-callbacks.queries";
import { EmailCallbackCard } from "./email-callback-card";
import { EmailCallbackLimitNotice, EmailCallbackUsage, isAtEmailCallbackLimit } from "./email-callback-usage";

export function EmailCallbackList() {
  const t = useTranslations("emailCallbacks.list");
  const query = useEmailCallbacks();

  if (query.isPending) return <EmailCallbackListSkeleton />;
  if (query.isError) return <LoadError message={t("loadError")} onRetry={() => query.refetch()} />;
  const list = query.data;
  if (list.emailCallbacks.length === 0) return <EmptyEmailCallbackList />;
  const isAtLimit = isAtEmailCallbackLimit(list);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <div className="flex flex-wrap items-center gap-4">
          <EmailCallbackUsage list={list} />
          <CreateEmailCallbackButton isDisabled={isAtLimit} />
        </div>
      </div>
      {isAtLimit ? <EmailCallbackLimitNotice maxEmailCallbacks={list.maxEmailCallbacks} /> : null}
      <ul className="flex flex-col gap-3">
        {list.emailCallbacks.map((emailCallback) => (
          <li key={emailCallback.id}>
            <EmailCallbackCard emailCallback={emailCallback} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function CreateEmailCallbackButton({ isDisabled = false }: { isDisabled?: boolean }) {
  const t = useTranslations("emailCallbacks.list");
  if (isDisabled) {
    return (
      <Button disabled>
        <PlusIcon aria-hidden />
        {t("create")}
      </Button>
    );
  }
  return (
    <Button asChild>
      <Link href="/email-callbacks/create">
        <PlusIcon aria-hidden />
        {t("create")}
      </Link>
    </Button>
  );
}

function EmptyEmailCallbackList() {
  const t = useTranslations("emailCallbacks.list");
  return (
    <EmptyState
      icon={MailPlusIcon}
      title={t("emptyTitle")}
      description={t("emptyDescription")}
      action={<CreateEmailCallbackButton />}
    />
  );
}

function EmailCallbackListSkeleton() {
  const t = useTranslations("common");
  return (
    <div className="flex flex-col gap-6" role="status" aria-busy="true" aria-label={t("loading")}>
      <div className="flex items-center justify-between">
        <Skeleton className="h-8 w-40" />
        <Skeleton className="h-9 w-36" />
      </div>
      {[0, 1, 2].map((index) => (
        <Skeleton key={index} className="h-[74px] w-full rounded-xl" />
      ))}
    </div>
  );
}
