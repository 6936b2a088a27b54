"use client";
// A processing's status as a badge: success green, error red, not processed grey, pending outlined.
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import type { ProcessingStatus } from "../processings.models";

const STATUS_VARIANTS = {
  success: "success",
  error: "destructive",
  "not-processed": "secondary",
  pending: "outline",
} as const satisfies Record<ProcessingStatus, string>;

export function ProcessingStatusBadge({ status }: { status: ProcessingStatus }) {
  const t = useTranslations("processing");
  return <Badge variant={STATUS_VARIANTS[status] ?? "outline"}>{t(`status.${status}`)}</Badge>;
}
