"use client";
// A date shown as how long ago it was (kept up to date), with the full date in a tooltip (the
// browser's own, `title`: docs/architecture.md, Decisions and their reasons: page weight).
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
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
    <time dateTime={value.toISOString()} title={fullDate}>
      {formatRelativeTime({
        date: value,
        now,
        locale,
        justNow: t("justNow"),
        fewSecondsAgo: t("fewSecondsAgo"),
      })}
    </time>
  );
}
