"use client";
// The API keys page: the user's keys, each with its name, the start of its
// token and a delete button behind a confirmation, or an empty state inviting to create one.
import { KeyRoundIcon, PlusIcon, Trash2Icon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useConfirmDialog } from "@/modules/shared/components/confirm-dialog";
import { LoadError } from "@/modules/shared/components/load-error";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { type ApiKeySummary, useApiKeysQuery, useDeleteApiKeyMutation } from "../api-keys.queries";
import { ApiKeysPageHeader } from "./api-keys-page-header";

export function ApiKeyList() {
  const t = useTranslations("apiKeys");
  const tCommon = useTranslations("common");
  const query = useApiKeysQuery();
  const apiKeys = query.data?.apiKeys ?? [];
  const hasApiKeys = apiKeys.length > 0;
  const { deleteApiKey, deletingApiKeyId, dialog } = useDeleteApiKey();

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      <ApiKeysPageHeader
        backHref="/"
        backLabel={t("back")}
        title={t("list.title")}
        description={t("list.description")}
        action={hasApiKeys ? <CreateApiKeyButton /> : null}
      />
      {query.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner className="size-6" aria-label={tCommon("loading")} />
        </div>
      ) : query.isError ? (
        <LoadError message={t("list.loadError")} onRetry={() => void query.refetch()} />
      ) : hasApiKeys ? (
        <Card className="gap-0 py-0">
          <ul className="divide-y">
            {apiKeys.map((apiKey) => (
              <li key={apiKey.id} className="flex items-center gap-3 px-4 py-3">
                <KeyRoundIcon className="text-muted-foreground size-4 shrink-0" aria-hidden />
                <div className="flex min-w-0 flex-1 flex-col">
                  <span className="truncate font-medium" title={apiKey.name}>
                    {apiKey.name}
                  </span>
                  <span className="text-muted-foreground truncate font-mono text-xs">{apiKey.prefix}…</span>
                </div>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  className="text-muted-foreground hover:text-destructive"
                  aria-label={t("list.deleteLabel", { name: apiKey.name })}
                  disabled={deletingApiKeyId === apiKey.id}
                  onClick={() => deleteApiKey(apiKey)}
                >
                  {deletingApiKeyId === apiKey.id ? <Spinner /> : <Trash2Icon aria-hidden />}
                </Button>
              </li>
            ))}
          </ul>
        </Card>
      ) : (
        <Card className="items-center gap-2 border-dashed px-6 py-12 text-center shadow-none">
          <div className="bg-muted mb-2 flex size-10 items-center justify-center rounded-full">
            <KeyRoundIcon className="text-muted-foreground size-5" aria-hidden />
          </div>
          <h2 className="font-semibold">{t("list.empty.title")}</h2>
          <p className="text-muted-foreground max-w-sm text-sm">{t("list.empty.description")}</p>
          <CreateApiKeyButton className="mt-4" />
        </Card>
      )}
      {dialog}
    </div>
  );
}

/** Asks for confirmation, then deletes the key (the list is refetched) and says so in a toast. */
function useDeleteApiKey() {
  const t = useTranslations("apiKeys.list.delete");
  const toast = useToast();
  const { confirm, dialog } = useConfirmDialog();
  const deleteMutation = useDeleteApiKeyMutation();

  async function deleteApiKey(apiKey: ApiKeySummary) {
    const isConfirmed = await confirm({
      title: t("title"),
      description: t("description"),
      confirmLabel: t("confirm"),
      cancelLabel: t("cancel"),
      isDestructive: true,
    });
    if (!isConfirmed) return;
    try {
      await deleteMutation.mutateAsync({ apiKeyId: apiKey.id });
    } catch {
      toast.error(t("error"));
      return;
    }
    toast.success(t("success"));
  }

  const deletingApiKeyId = deleteMutation.isPending ? deleteMutation.variables.apiKeyId : null;
  return { deleteApiKey, deletingApiKeyId, dialog };
}

function CreateApiKeyButton({ className }: { className?: string }) {
  const t = useTranslations("apiKeys.list");
  return (
    <Button asChild className={className}>
      <Link href="/api-keys/create">
        <PlusIcon aria-hidden />
        {t("create")}
      </Link>
    </Button>
  );
}
