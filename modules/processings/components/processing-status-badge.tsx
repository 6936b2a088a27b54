"use client";
// A processing's status as a badge: success green, error red, not processed grey, pending outlined.
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import { PROCESSING_STATUS, type ProcessingStatus } from "../processings.constants";

const STATUS_VARIANTS = {
  [PROCESSING_STATUS.SUCCESS]: "success",
  [PROCESSING_STATUS.ERROR]: "destructive",
  [PROCESSING_STATUS.NOT_PROCESSED]: "secondary",
  [PROCESSING_STATUS.PENDING]: "outline",
} as const satisfies Record<ProcessingStatus, string>;

export function ProcessingStatusBadge({ status }: { status: ProcessingStatus }) {
  const t = useTranslations("processing");
  return <Badge variant={STATUS_VARIANTS[status] ?? "outline"}>{t(`status.${status}`)}</Badge>;
}
