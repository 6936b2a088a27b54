import { describe, expect, it } from "vitest";
import { describeRelativeTime, formatFullDate, formatRelativeTime } from "./relative-time";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const ago = (milliseconds: number) => new Date(NOW.getTime() - milliseconds);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("describeRelativeTime", () => {
  it("says just now under 5 seconds, and for a date a little in the future", () => {
    expect(describeRelativeTime(ago(0), NOW)).toEqual({ kind: "justNow" });
    expect(describeRelativeTime(ago(4999), NOW)).toEqual({ kind: "justNow" });
    expect(describeRelativeTime(new Date(NOW.getTime() + 3 * SECOND), NOW)).toEqual({ kind: "justNow" });
  });

  it("says a few seconds ago from 5 to under 10 seconds", () => {
    expect(describeRelativeTime(ago(5 * SECOND), NOW)).toEqual({ kind: "fewSecondsAgo" });
    expect(describeRelativeTime(ago(9999), NOW)).toEqual({ kind: "fewSecondsAgo" });
  });

  it("counts seconds from 10 seconds, then minutes, then hours", () => {
    expect(describeRelativeTime(ago(10 * SECOND), NOW)).toEqual({ kind: "ago", value: 10, unit: "second" });
    expect(describeRelativeTime(ago(59 * SECOND), NOW)).toEqual({ kind: "ago", value: 59, unit: "second" });
    expect(describeRelativeTime(ago(MINUTE), NOW)).toEqual({ kind: "ago", value: 1, unit: "minute" });
    expect(describeRelativeTime(ago(59 * MINUTE + 59 * SECOND), NOW)).toEqual({ kind: "ago", value: 59, unit: "minute" });
    expect(describeRelativeTime(ago(HOUR), NOW)).toEqual({ kind: "ago", value: 1, unit: "hour" });
    expect(describeRelativeTime(ago(23 * HOUR), NOW)).toEqual({ kind: "ago", value: 23, unit: "hour" });
  });

  it("counts days under 30, months under 12, then years", () => {
    expect(describeRelativeTime(ago(DAY), NOW)).toEqual({ kind: "ago", value: 1, unit: "day" });
    expect(describeRelativeTime(ago(29 * DAY), NOW)).toEqual({ kind: "ago", value: 29, unit: "day" });
    expect(describeRelativeTime(ago(30 * DAY), NOW)).toEqual({ kind: "ago", value: 1, unit: "month" });
    expect(describeRelativeTime(ago(364 * DAY), NOW)).toEqual({ kind: "ago", value: 11, unit: "month" });
    expect(describeRelativeTime(ago(365 * DAY), NOW)).toEqual({ kind: "ago", value: 1, unit: "year" });
    expect(describeRelativeTime(ago(3 * 365 * DAY), NOW)).toEqual({ kind: "ago", value: 3, unit: "year" });
  });
});

describe("formatRelativeTime", () => {
  const words = { justNow: "just now", fewSecondsAgo: "a few seconds ago" };

  it("uses the given words for the first ten seconds", () => {
    expect(formatRelativeTime({ date: ago(1 * SECOND), now: NOW, locale: "en", ...words })).toBe("just now");
    expect(formatRelativeTime({ date: ago(7 * SECOND), now: NOW, locale: "en", ...words })).toBe("a few seconds ago");
  });

  it("words the rest in the locale's language", () => {
    expect(formatRelativeTime({ date: ago(42 * SECOND), now: NOW, locale: "en", ...words })).toBe("42 seconds ago");
    expect(formatRelativeTime({ date: ago(3 * MINUTE), now: NOW, locale: "en", ...words })).toBe("3 minutes ago");
    expect(formatRelativeTime({ date: ago(5 * HOUR), now: NOW, locale: "en", ...words })).toBe("5 hours ago");
    expect(formatRelativeTime({ date: ago(3 * MINUTE), now: NOW, locale: "fr", ...words })).toBe("il y a 3 minutes");
    expect(formatRelativeTime({ date: ago(2 * 365 * DAY), now: NOW, locale: "fr", ...words })).toBe("il y a 2 ans");
  });
});

describe("formatFullDate", () => {
  it("gives the full date with the time", () => {
    const text = formatFullDate(NOW, "en");
    expect(text).toContain("2026");
    expect(text).toContain("June");
  });
});
