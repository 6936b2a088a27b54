"use client";
// A date shown as how long ago it was (kept up to date), with the full date in a tooltip. All the
// dates on a page follow one clock: one interval, whatever the number of rows.
import { useLocale, useTranslations } from "next-intl";
import { useMemo, useState, useSyncExternalStore } from "react";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { formatFullDate, formatRelativeTime } from "../relative-time";

const REFRESH_INTERVAL_MS = 5000;

// The shared clock of the browser: it ticks while at least one date is shown (nothing subscribes on
// the server, where each date reads the time of its render).
const clock = { now: 0, listeners: new Set<() => void>(), interval: undefined as ReturnType<typeof setInterval> | undefined };

function subscribeToClock(listener: () => void) {
  clock.listeners.add(listener);
  if (clock.listeners.size === 1) {
    clock.interval = setInterval(() => {
      clock.now = Date.now();
      for (const notify of clock.listeners) notify();
    }, REFRESH_INTERVAL_MS);
  }
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size > 0) return;
    clearInterval(clock.interval);
    clock.interval = undefined;
  };
}

function useNow(): number {
  const [renderedAt] = useState(() => Date.now());
  const tick = useSyncExternalStore(
    subscribeToClock,
    () => clock.now,
    () => 0,
  );
  // A date mounted between two ticks starts from its own time.
  return Math.max(renderedAt, tick);
}

export function RelativeTime({ date }: { date: string | Date }) {
  const t = useTranslations("common.relativeTime");
  const locale = useLocale();
  const now = useNow();
  const value = useMemo(() => (typeof date === "string" ? new Date(date) : date), [date]);
  // Formatted once, not at every tick.
  const relativeFormat = useMemo(() => new Intl.RelativeTimeFormat(locale, { numeric: "auto" }), [locale]);
  const fullDate = useMemo(() => formatFullDate(value, locale), [value, locale]);
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
            now: new Date(now),
            locale,
            format: relativeFormat,
            justNow: t("justNow"),
            fewSecondsAgo: t("fewSecondsAgo"),
          })}
        </time>
      </TooltipTrigger>
      <TooltipContent>{fullDate}</TooltipContent>
    </Tooltip>
  );
}
