"use client";
// The list of the user's email callbacks: a create button and one
// card per callback, or an empty state inviting to create the first one.
import { MailPlusIcon, PlusIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
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
    <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed px-6 py-16 text-center">
      <div className="bg-muted flex size-12 items-center justify-center rounded-full">
        <MailPlusIcon aria-hidden className="text-muted-foreground size-6" />
      </div>
      <div className="flex max-w-md flex-col gap-1">
        <h1 className="text-xl font-semibold tracking-tight">{t("emptyTitle")}</h1>
        <p className="text-muted-foreground text-sm">{t("emptyDescription")}</p>
      </div>
      <CreateEmailCallbackButton />
    </div>
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
