"use client";
// The add / edit dialog of an endpoint. The form is built afresh each time the dialog opens. When
// the server answers an HMAC secret (a new endpoint's generated one, or one this edit set), the
// dialog shows it once, to be copied: it is never shown again (docs/webhooks.md: Endpoints).
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { CopyButton } from "@/modules/shared/components/copy-button";
import type { ApiEndpoint } from "../endpoints.models";
import { useCreateEndpoint, useUpdateEndpoint } from "../endpoints.queries";
import { EndpointForm } from "./endpoint-form";
import type { EndpointFormOutput } from "./endpoint-form-schema";
import {
  getEmptyEndpointFormValues,
  getEndpointFormValues,
  toCreateEndpointInput,
  toUpdateEndpointInput,
} from "./endpoint-form-values";

export function EndpointDialog({
  emailCallbackId,
  endpoint,
  open,
  onOpenChange,
}: {
  emailCallbackId: string;
  /** The endpoint to edit; null to add one. */
  endpoint: ApiEndpoint | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations("endpoints.dialog");
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t("close")} className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl">
        <EndpointDialogBody emailCallbackId={emailCallbackId} endpoint={endpoint} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function EndpointDialogBody({
  emailCallbackId,
  endpoint,
  onDone,
}: {
  emailCallbackId: string;
  endpoint: ApiEndpoint | null;
  onDone: () => void;
}) {
  const t = useTranslations("endpoints.dialog");
  const createEndpoint = useCreateEndpoint(emailCallbackId);
  const updateEndpoint = useUpdateEndpoint(emailCallbackId);
  // Taken once: a background refetch of the list must not overwrite what the user is typing.
  const [defaultValues] = useState(() => (endpoint ? getEndpointFormValues(endpoint) : getEmptyEndpointFormValues()));
  const [revealedSecret, setRevealedSecret] = useState<string | null>(null);

  async function save(values: EndpointFormOutput) {
    let saved: ApiEndpoint;
    if (endpoint) {
      const changes = toUpdateEndpointInput(endpoint, values);
      if (Object.keys(changes).length === 0) return onDone();
      saved = await updateEndpoint.mutateAsync({ endpointId: endpoint.id, input: changes });
    } else {
      saved = await createEndpoint.mutateAsync(toCreateEndpointInput(values));
    }
    if (saved.signing.scheme === "hmac" && saved.signing.secret) setRevealedSecret(saved.signing.secret);
    else onDone();
  }

  if (revealedSecret) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>{t("secretTitle")}</DialogTitle>
          <DialogDescription>{t("secretOnce")}</DialogDescription>
        </DialogHeader>
        <div className="flex min-w-0 items-center gap-2">
          <Input
            readOnly
            aria-label={t("secret")}
            value={revealedSecret}
            className="min-w-0 flex-1 font-mono"
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton value={revealedSecret} label={t("copySecret")} variant="outline" size="icon" />
        </div>
        <DialogFooter>
          <Button onClick={onDone}>{t("done")}</Button>
        </DialogFooter>
      </>
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>{endpoint ? t("editTitle") : t("addTitle")}</DialogTitle>
        <DialogDescription>{endpoint ? t("editDescription") : t("addDescription")}</DialogDescription>
      </DialogHeader>
      <EndpointForm endpoint={endpoint} defaultValues={defaultValues} onSubmit={save} />
    </>
  );
}
