"use client";
// The dropdown of an email callback's menu in the list, loaded when it is first opened
// (email-callback-card.tsx): enable or disable, its inbox, its settings, delete.
import { InboxIcon, PowerIcon, PowerOffIcon, SettingsIcon, Trash2Icon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactElement, RefObject } from "react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { emailCallbackPath } from "@/modules/shared/app-paths";
import type { ApiEmailCallback } from "../email-callbacks.models";
import type { useEmailCallbackActions } from "./use-email-callback-actions";

export function EmailCallbackMenuDropdown({
  emailCallback,
  actions: { setEnabled, deleteWithConfirmation, isUpdating, isDeleting },
  trigger,
  menuButton,
}: {
  emailCallback: ApiEmailCallback;
  actions: ReturnType<typeof useEmailCallbackActions>;
  trigger: ReactElement;
  /** The trigger's button, where focus goes back after the delete confirmation. */
  menuButton: RefObject<HTMLButtonElement | null>;
}) {
  const t = useTranslations("emailCallbacks.menu");
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-48">
        <DropdownMenuItem disabled={isUpdating} onSelect={() => void setEnabled(emailCallback, !emailCallback.isEnabled)}>
          {emailCallback.isEnabled ? <PowerOffIcon aria-hidden /> : <PowerIcon aria-hidden />}
          {emailCallback.isEnabled ? t("disable") : t("enable")}
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href={emailCallbackPath(emailCallback.id, "inbox")}>
            <InboxIcon aria-hidden />
            {t("viewHistory")}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href={emailCallbackPath(emailCallback.id, "settings")}>
            <SettingsIcon aria-hidden />
            {t("settings")}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          variant="destructive"
          disabled={isDeleting}
          onSelect={() => void deleteWithConfirmation(emailCallback, menuButton)}
        >
          <Trash2Icon aria-hidden />
          {t("delete")}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
