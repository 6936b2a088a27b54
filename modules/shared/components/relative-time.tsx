"use client";
// A date shown as how long ago it was (kept up to date), with the full date in a tooltip (the
// browser's own, `title`: docs/architecture.md, Decisions and their reasons: page weight). All the
// dates on a page follow one clock: one interval, whatever the number of rows.
import { useLocale, useTranslations } from "next-intl";
import { useMemo, useState, useSyncExternalStore } from "react";
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
    <time dateTime={value.toISOString()} title={fullDate}>
      {formatRelativeTime({
        date: value,
        now: new Date(now),
        locale,
        format: relativeFormat,
        justNow: t("justNow"),
        fewSecondsAgo: t("fewSecondsAgo"),
      })}
    </time>
  );
}
