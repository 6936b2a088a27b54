"use client";
// One email callback in the list: its address (linking to its detail) with a copy button, the
// "Disabled" badge when switched off, its webhook URL, and a menu of actions (its dropdown:
// email-callback-menu-dropdown.tsx, loaded when first opened).
import { EllipsisVerticalIcon, WebhookIcon } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { emailCallbackPath } from "@/modules/shared/app-paths";
import { MenuOnDemand } from "@/modules/shared/components/menu-on-demand";
import { toUnicodeAddress } from "@/modules/shared/domain-names";
import type { ApiEmailCallback } from "../email-callbacks.models";
import { CopyAddressButton } from "./copy-address-button";
import { DisabledBadge } from "./disabled-badge";
import { useEmailCallbackActions } from "./use-email-callback-actions";

const loadEmailCallbackMenuDropdown = () => import("./email-callback-menu-dropdown");
const EmailCallbackMenuDropdown = dynamic(
  () => loadEmailCallbackMenuDropdown().then((module) => module.EmailCallbackMenuDropdown),
  { ssr: false },
);

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
            {toUnicodeAddress(emailCallback.address)}
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
  const actions = useEmailCallbackActions();
  const menuButton = useRef<HTMLButtonElement>(null);
  const trigger = (
    <Button
      ref={menuButton}
      variant="ghost"
      size="icon"
      aria-label={t("label", { address: toUnicodeAddress(emailCallback.address) })}
    >
      <EllipsisVerticalIcon aria-hidden />
    </Button>
  );
  return (
    <>
      <MenuOnDemand
        trigger={trigger}
        preload={loadEmailCallbackMenuDropdown}
        menu={
          <EmailCallbackMenuDropdown emailCallback={emailCallback} actions={actions} trigger={trigger} menuButton={menuButton} />
        }
      />
      {actions.confirmDialog}
    </>
  );
}
