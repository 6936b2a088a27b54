"use client";
import { EllipsisVerticalIcon, InboxIcon, PowerIcon, PowerOffIcon, SettingsIcon, Trash2Icon, WebhookIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
// One email callback in the list: its address (linking to its detail) with a copy button, the
// "Disabled" badge when switched off, its webhook URL, and a menu of actions.
import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { emailCallbackPath } from "@/modules/shared/app-paths";
import type { ApiEmailCallback } from "../email-callbacks.models";
import { CopyAddressButton } from "./copy-address-button";
import { DisabledBadge } from "./disabled-badge";
import { useEmailCallbackActions } from "./use-email-callback-actions";

export function EmailCallbackCard({ emailCallback }: { emailCallback: ApiEmailCallback }) {
  return (
    <Card className="flex-row items-center gap-4 px-5 py-4">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex min-w-0 items-center gap-1">
          {/* One per address: prefetching every inbox of the list would compete with the page's own requests. */}
          <Link
            href={emailCallbackPath(emailCallback.id, "inbox")}
            prefetch={false}
            className="truncate font-medium hover:underline"
          >
            {emailCallback.address}
          </Link>
          <CopyAddressButton address={emailCallback.address} className="text-muted-foreground" />
          {emailCallback.isEnabled ? null : <DisabledBadge />}
        </div>
        <p className="text-muted-foreground flex min-w-0 items-center gap-1.5 text-sm">
          <WebhookIcon aria-hidden className="size-4 shrink-0" />
          <span className="truncate" title={emailCallback.webhookUrl}>
            {emailCallback.webhookUrl}
          </span>
        </p>
      </div>
      <EmailCallbackMenu emailCallback={emailCallback} />
    </Card>
  );
}

function EmailCallbackMenu({ emailCallback }: { emailCallback: ApiEmailCallback }) {
  const t = useTranslations("emailCallbacks.menu");
  const { setEnabled, deleteWithConfirmation, isUpdating, isDeleting, confirmDialog } = useEmailCallbackActions();
  const menuButton = useRef<HTMLButtonElement>(null);
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button ref={menuButton} variant="ghost" size="icon" aria-label={t("label", { address: emailCallback.address })}>
            <EllipsisVerticalIcon aria-hidden />
          </Button>
        </DropdownMenuTrigger>
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
      {confirmDialog}
    </>
  );
}
