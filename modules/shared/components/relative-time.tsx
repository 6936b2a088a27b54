"use client";
// A date shown as how long ago it was (kept up to date), with the full date in a tooltip.
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { formatFullDate, formatRelativeTime } from "../relative-time";

const REFRESH_INTERVAL_MS = 5000;

function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const interval = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(interval);
  }, [intervalMs]);
  return now;
}

export function RelativeTime({ date }: { date: string | Date }) {
  const t = useTranslations("common.relativeTime");
  const locale = useLocale();
  const now = useNow(REFRESH_INTERVAL_MS);
  const value = typeof date === "string" ? new Date(date) : date;
  const fullDate = formatFullDate(value, locale);
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <time
          dateTime={value.toISOString()}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so that keyboard users get the full date's tooltip too
          tabIndex={0}
          className="rounded-sm outline-none focus-visible:ring-2 focus-visible:ring-ring/50"
        >
          {formatRelativeTime({
            date: value,
            now,
            locale,
            justNow: t("justNow"),
            fewSecondsAgo: t("fewSecondsAgo"),
          })}
        </time>
      </TooltipTrigger>
      <TooltipContent>{fullDate}</TooltipContent>
    </Tooltip>
  );
}
