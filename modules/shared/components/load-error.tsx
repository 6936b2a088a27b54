"use client";
// What shows when data could not be loaded: the reason and a Retry button.
import { RefreshCwIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";

export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const t = useTranslations("common");
  return (
    <div role="alert" className="flex flex-col items-center gap-4 rounded-xl border px-6 py-12 text-center">
      <p className="text-muted-foreground text-sm">{message}</p>
      <Button variant="outline" onClick={onRetry}>
        <RefreshCwIcon aria-hidden />
        {t("retry")}
      </Button>
    </div>
  );
}
