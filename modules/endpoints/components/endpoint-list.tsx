"use client";
import { useQueryClient } from "@tanstack/react-query";
// The Destinations card of an address's settings: its endpoints in creation order, each with its URL,
// format, signing, filter and state, Edit and Remove (asked first; the only endpoint cannot be
// removed: an address needs one), and Add destination. The plan's limit is the server's to say
// (403 endpoints.limit_reached, shown in the dialog).
import { PlusIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useEmailCallback } from "@/modules/email-callbacks/email-callbacks.queries";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { useConfirmDialog } from "@/modules/shared/components/confirm-dialog";
import { LoadError } from "@/modules/shared/components/load-error";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import type { ApiEndpoint } from "../endpoints.models";
import { useDeleteEndpoint, useEndpoints } from "../endpoints.queries";
import { endpointQueryKeys } from "../endpoints.query-keys";
import { EndpointDialog } from "./endpoint-dialog";
import { EndpointRow } from "./endpoint-row";

/**
 * The address's webhook URL and secret are its first endpoint's: when the settings form above changes
 * them, the list is read again.
 */
function useEndpointsFollowAddress(emailCallbackId: string) {
  const queryClient = useQueryClient();
  const { data: emailCallback } = useEmailCallback(emailCallbackId);
  const firstEndpoint = emailCallback ? `${emailCallback.webhookUrl}\n${emailCallback.maskedWebhookSecret}` : null;
  const seen = useRef(firstEndpoint);
  useEffect(() => {
    if (firstEndpoint === null || firstEndpoint === seen.current) return;
    const isFirstLoad = seen.current === null;
    seen.current = firstEndpoint;
    if (!isFirstLoad) void queryClient.invalidateQueries({ queryKey: endpointQueryKeys.list(emailCallbackId) });
  }, [firstEndpoint, emailCallbackId, queryClient]);
}

export function EndpointList({ emailCallbackId }: { emailCallbackId: string }) {
  const t = useTranslations("endpoints.list");
  const toast = useToast();
  const apiErrorMessage = useApiErrorMessage();
  const endpoints = useEndpoints(emailCallbackId);
  useEndpointsFollowAddress(emailCallbackId);
  const deleteEndpoint = useDeleteEndpoint(emailCallbackId);
  const { confirm, dialog } = useConfirmDialog();
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  // Kept after closing, so that the dialog keeps its content while it fades out.
  const [dialogEndpoint, setDialogEndpoint] = useState<ApiEndpoint | null>(null);
  // A new form each time the dialog opens.
  const [dialogKey, setDialogKey] = useState(0);
  const list = endpoints.data ?? [];
  const isOnlyOne = list.length === 1;

  function openDialog(endpoint: ApiEndpoint | null) {
    setDialogEndpoint(endpoint);
    setDialogKey((key) => key + 1);
    setIsDialogOpen(true);
  }

  async function remove(endpoint: ApiEndpoint) {
    const isConfirmed = await confirm({
      title: t("removeTitle"),
      description: t("removeDescription", { url: endpoint.url }),
      confirmLabel: t("remove"),
      isDestructive: true,
    });
    if (!isConfirmed) return;
    try {
      await deleteEndpoint.mutateAsync(endpoint.id);
      toast.success(t("removed"));
    } catch (error) {
      toast.error(apiErrorMessage(error));
    }
  }

  return (
    <Card className="mx-auto w-full max-w-2xl">
      <CardHeader>
        <CardTitle>{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {endpoints.isError ? (
          <LoadError message={apiErrorMessage(endpoints.error)} onRetry={() => void endpoints.refetch()} />
        ) : endpoints.data ? (
          <ul aria-label={t("title")} className="divide-y">
            {list.map((endpoint) => (
              <EndpointRow
                key={endpoint.id}
                endpoint={endpoint}
                canRemove={!isOnlyOne}
                onEdit={() => openDialog(endpoint)}
                onRemove={() => void remove(endpoint)}
              />
            ))}
          </ul>
        ) : (
          <Skeleton className="h-16 w-full" />
        )}
        {isOnlyOne ? <p className="text-muted-foreground text-sm">{t("onlyOneHint")}</p> : null}
        <div className="pt-2">
          <Button variant="outline" size="sm" disabled={!endpoints.data} onClick={() => openDialog(null)}>
            <PlusIcon aria-hidden />
            {t("add")}
          </Button>
        </div>
      </CardContent>
      <EndpointDialog
        key={dialogKey}
        emailCallbackId={emailCallbackId}
        endpoint={dialogEndpoint}
        open={isDialogOpen}
        onOpenChange={setIsDialogOpen}
      />
      {dialog}
    </Card>
  );
}
