"use client";
// The dropdown of a mail's menu in the inbox, loaded when it is first opened (inbox-rows.tsx): its
// delivery attempts, and redelivering it.
import { HistoryIcon, RotateCwIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import type { ReactElement } from "react";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";

export function ProcessingMenuDropdown({
  trigger,
  canRedeliver,
  onViewAttempts,
  onRedeliver,
}: {
  trigger: ReactElement;
  canRedeliver: boolean;
  onViewAttempts: () => void;
  onRedeliver: () => void;
}) {
  const t = useTranslations("processing.inbox.actions");
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-52">
        <DropdownMenuItem onSelect={onViewAttempts}>
          <HistoryIcon aria-hidden />
          {t("viewAttempts")}
        </DropdownMenuItem>
        <DropdownMenuItem disabled={!canRedeliver} onSelect={onRedeliver}>
          <RotateCwIcon aria-hidden />
          {t("redeliver")}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
