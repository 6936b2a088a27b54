"use client";
// A full-page loading state.
import { useTranslations } from "next-intl";
import { Spinner } from "@/components/ui/spinner";

export function PageSpinner() {
  const t = useTranslations("common");
  return (
    <div className="flex min-h-svh items-center justify-center">
      <Spinner className="size-6" aria-label={t("loading")} />
    </div>
  );
}
