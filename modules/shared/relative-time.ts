// How long ago something happened, in words: under 5 s "just now", under
// 10 s "a few seconds ago", then seconds, minutes, hours, days (under 30), months (under 12),
// years. The numeric parts are worded by Intl.RelativeTimeFormat in the given locale.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const DAYS_PER_MONTH = 30;
const DAYS_PER_YEAR = 365;

export type RelativeTime =
  | { kind: "justNow" }
  | { kind: "fewSecondsAgo" }
  | { kind: "ago"; value: number; unit: Intl.RelativeTimeFormatUnit };

export function describeRelativeTime(date: Date, now: Date): RelativeTime {
  // A date in the future (clocks a little apart) reads as "just now".
  const elapsed = Math.max(0, now.getTime() - date.getTime());
  if (elapsed < 5 * SECOND) return { kind: "justNow" };
  if (elapsed < 10 * SECOND) return { kind: "fewSecondsAgo" };
  if (elapsed < MINUTE) return { kind: "ago", value: Math.floor(elapsed / SECOND), unit: "second" };
  if (elapsed < HOUR) return { kind: "ago", value: Math.floor(elapsed / MINUTE), unit: "minute" };
  if (elapsed < DAY) return { kind: "ago", value: Math.floor(elapsed / HOUR), unit: "hour" };
  const days = Math.floor(elapsed / DAY);
  if (days < DAYS_PER_MONTH) return { kind: "ago", value: days, unit: "day" };
  if (days < DAYS_PER_YEAR) {
    return { kind: "ago", value: Math.min(11, Math.floor(days / DAYS_PER_MONTH)), unit: "month" };
  }
  return { kind: "ago", value: Math.floor(days / DAYS_PER_YEAR), unit: "year" };
}

export function formatRelativeTime({
  date,
  now,
  locale,
  format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" }),
  justNow,
  fewSecondsAgo,
}: {
  date: Date;
  now: Date;
  locale: string;
  /** The locale's formatter, when the caller keeps one (made once rather than per call). */
  format?: Intl.RelativeTimeFormat;
  /** The localized "just now" and "a few seconds ago". */
  justNow: string;
  fewSecondsAgo: string;
}): string {
  const relativeTime = describeRelativeTime(date, now);
  if (relativeTime.kind === "justNow") return justNow;
  if (relativeTime.kind === "fewSecondsAgo") return fewSecondsAgo;
  return format.format(-relativeTime.value, relativeTime.unit);
}

/** The full date and time, for the tooltip of a relative time. */
export function formatFullDate(date: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "medium" }).format(date);
}
