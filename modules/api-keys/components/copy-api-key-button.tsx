"use client";
// Copies the new API key's token. Unlike the shared icon-only CopyButton it has a visible label,
// which reads "Copied" for 2 seconds after each copy.
import { CheckIcon, CopyIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { copyToClipboard } from "@/modules/shared/components/copy-button";
import { useToast } from "@/modules/shared/components/toasts-on-demand";

export const COPIED_LABEL_DURATION_MS = 2000;

export function CopyApiKeyButton({ token }: { token: string }) {
  const t = useTranslations("apiKeys.create.success");
  const toast = useToast();
  const [isCopied, setIsCopied] = useState(false);
  const resetTimeout = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(resetTimeout.current), []);

  function showCopied() {
    clearTimeout(resetTimeout.current);
    setIsCopied(true);
    resetTimeout.current = setTimeout(() => setIsCopied(false), COPIED_LABEL_DURATION_MS);
  }

  function copy() {
    copyToClipboard(token).then(showCopied, () => toast.error(t("copyError")));
  }

  return (
    <Button type="button" variant="outline" onClick={copy} className="min-w-28">
      {isCopied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
      {isCopied ? t("copied") : t("copy")}
    </Button>
  );
}
