"use client";
import { MailPlusIcon, PlusIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
// The list of the user's email callbacks: a create button and one
// card per callback, or an empty state inviting to create the first one.
import { EmptyState } from "@/modules/shared/components/empty-state";
import { LoadError } from "@/modules/shared/components/load-error";
import { useEmailCallbacks } from "../email-callbacks.queries";
import { EmailCallbackCard } from "./email-callback-card";

export function EmailCallbackList() {
  const t = useTranslations("emailCallbacks.list");
  const query = useEmailCallbacks();

  if (query.isPending) return <EmailCallbackListSkeleton />;
  if (query.isError) return <LoadError message={t("loadError")} onRetry={() => query.refetch()} />;
  if (query.data.length === 0) return <EmptyEmailCallbackList />;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <CreateEmailCallbackButton />
      </div>
      <ul className="flex flex-col gap-3">
        {query.data.map((emailCallback) => (
          <li key={emailCallback.id}>
            <EmailCallbackCard emailCallback={emailCallback} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function CreateEmailCallbackButton() {
  const t = useTranslations("emailCallbacks.list");
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
