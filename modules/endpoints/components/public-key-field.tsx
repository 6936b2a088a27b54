"use client";
// An Ed25519 endpoint's public key (`whpk_…`), read-only, with a copy button: receivers verify its
// signatures with it (docs/webhooks.md: Endpoints).
import { useTranslations } from "next-intl";
import { useId } from "react";
import { Input } from "@/components/ui/input";
import { CopyButton } from "@/modules/shared/components/copy-button";

export function PublicKeyField({ publicKey }: { publicKey: string }) {
  const t = useTranslations("endpoints.list");
  const inputId = useId();
  return (
    <div className="grid gap-1">
      <label htmlFor={inputId} className="text-muted-foreground text-xs">
        {t("publicKey")}
      </label>
      <div className="flex min-w-0 items-center gap-1">
        <Input id={inputId} readOnly value={publicKey} title={publicKey} className="h-8 min-w-0 flex-1 font-mono text-xs" />
        <CopyButton value={publicKey} label={t("copyPublicKey")} />
      </div>
    </div>
  );
}
