"use client";
// One endpoint in the Destinations card: its URL (cut to the card's width, whole in its tooltip),
// format, signing and state, its filter in a line, an Ed25519 public key to copy, Edit and Remove.
import { PencilIcon, Trash2Icon } from "lucide-react";
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { ApiEndpoint } from "../endpoints.models";
import { summarizeFilter } from "./endpoint-labels";
import { PublicKeyField } from "./public-key-field";

export function EndpointRow({
  endpoint,
  canRemove,
  onEdit,
  onRemove,
}: {
  endpoint: ApiEndpoint;
  /** False for an address's only endpoint. */
  canRemove: boolean;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const t = useTranslations("endpoints.list");
  const tDialog = useTranslations("endpoints.dialog");
  return (
    <li aria-label={endpoint.url} className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-start">
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <p className="truncate font-mono text-sm" title={endpoint.url}>
          {endpoint.url}
        </p>
        <div className="flex flex-wrap gap-1.5">
          <Badge variant="outline">{tDialog(`formats.${endpoint.format}`)}</Badge>
          <Badge variant="outline">{tDialog(`schemes.${endpoint.signing.scheme}`)}</Badge>
          {endpoint.isEnabled ? (
            <Badge variant="success">{t("enabled")}</Badge>
          ) : (
            <Badge variant="secondary">{t("disabled")}</Badge>
          )}
        </div>
        <FilterSummary endpoint={endpoint} />
        {endpoint.signing.scheme === "ed25519" ? <PublicKeyField publicKey={endpoint.signing.publicKey} /> : null}
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="outline" size="sm" onClick={onEdit}>
          <PencilIcon aria-hidden />
          {t("edit")}
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={!canRemove}
          title={canRemove ? undefined : t("onlyOneHint")}
          onClick={onRemove}
        >
          <Trash2Icon aria-hidden />
          {t("remove")}
        </Button>
      </div>
    </li>
  );
}

function FilterSummary({ endpoint }: { endpoint: ApiEndpoint }) {
  const t = useTranslations("endpoints.filter");
  const summary = endpoint.filter ? summarizeFilter(endpoint.filter) : null;
  if (!summary) return <p className="text-muted-foreground text-sm">{t("summary.everyMail")}</p>;
  const field = summary.field === "header" ? t("summary.header", { name: summary.headerName }) : t(`fields.${summary.field}`);
  const condition = t("summary.condition", {
    field,
    operator: t(`operators.${summary.op}`),
    value: summary.value,
  });
  return (
    <p className="text-muted-foreground text-sm break-words">
      {summary.moreCount === 0
        ? t("summary.one", { condition })
        : t(`summary.${summary.match}`, { condition, count: summary.moreCount })}
    </p>
  );
}
