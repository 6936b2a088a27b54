"use client";
// An icon button that copies a value to the clipboard: its icon turns into a check for 2 seconds
// and `onCopied` runs (e.g. to show a toast). Its tooltip is the browser's own (`title`:
// docs/architecture.md, Decisions and their reasons: page weight).
import { CheckIcon, CopyIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { type ComponentProps, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { useToast } from "./toasts-on-demand";

const COPIED_STATE_MS = 2000;

export async function copyToClipboard(value: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(value);
    return;
  }
  // Outside secure contexts (plain HTTP on a LAN address) the Clipboard API is missing.
  const textarea = document.createElement("textarea");
  textarea.value = value;
  textarea.setAttribute("readonly", "");
  textarea.style.position = "fixed";
  textarea.style.opacity = "0";
  document.body.append(textarea);
  textarea.select();
  const isCopied = document.execCommand("copy");
  textarea.remove();
  if (!isCopied) throw new Error("Copy to clipboard failed");
}

export function CopyButton({
  value,
  label,
  onCopied,
  variant = "ghost",
  size = "icon-sm",
  className,
}: {
  value: string;
  /** The button's accessible name and tooltip, e.g. "Copy email address". */
  label: string;
  onCopied?: () => void;
  variant?: ComponentProps<typeof Button>["variant"];
  size?: ComponentProps<typeof Button>["size"];
  className?: string;
}) {
  const t = useTranslations("common");
  const toast = useToast();
  const [isCopied, setIsCopied] = useState(false);

  useEffect(() => {
    if (!isCopied) return;
    const timeout = setTimeout(() => setIsCopied(false), COPIED_STATE_MS);
    return () => clearTimeout(timeout);
  }, [isCopied]);

  async function copy() {
    try {
      await copyToClipboard(value);
    } catch {
      toast.error(t("copyFailed"));
      return;
    }
    setIsCopied(true);
    onCopied?.();
  }

  return (
    <Button
      type="button"
      variant={variant}
      size={size}
      aria-label={label}
      title={isCopied ? t("copied") : label}
      onClick={copy}
      className={className}
    >
      {isCopied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
    </Button>
  );
}
