"use client";
// Shown when the config cannot be loaded. A retry that fails again shows an error toast.
import { ServerCrashIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useToast } from "@/modules/shared/components/toasts-on-demand";

export function ServerUnreachable({ onRetry }: { onRetry: () => Promise<{ isError: boolean }> }) {
  const t = useTranslations("serverUnreachable");
  const toast = useToast();
  const [isRetrying, setIsRetrying] = useState(false);

  async function retry() {
    setIsRetrying(true);
    const result = await onRetry();
    setIsRetrying(false);
    if (result.isError) toast.error(t("stillUnreachableTitle"), { description: t("stillUnreachableDescription") });
  }

  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center">
      <ServerCrashIcon className="text-muted-foreground size-10" aria-hidden />
      <h1 className="text-xl font-semibold">{t("title")}</h1>
      <p className="text-muted-foreground max-w-md text-sm">{t("description")}</p>
      <Button onClick={retry} disabled={isRetrying}>
        {isRetrying ? <Spinner /> : null}
        {t("retry")}
      </Button>
    </main>
  );
}
