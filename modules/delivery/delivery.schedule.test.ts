import { describe, expect, it } from "vitest";
import { MAX_DELIVERY_ATTEMPTS } from "./delivery.constants";
import { classifyAttempt, computeNextAttemptAt, getRetryDelayMs, parseRetryAfter } from "./delivery.schedule";
import type { WebhookResult } from "./webhook-client";

const noJitter = () => 0.5;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const response = (statusCode: number): WebhookResult => ({ kind: "response", statusCode, durationMs: 5, bodyExcerpt: "" });

describe("getRetryDelayMs", () => {
  it("waits 30 s, 2 min, 10 min, 1 h, 6 h and 24 h after the 1st to 6th attempt: 7 attempts in all", () => {
    const delays = [1, 2, 3, 4, 5, 6].map((attemptsMade) => getRetryDelayMs({ attemptsMade, random: noJitter }));
    expect(delays).toEqual([30 * SECOND, 2 * MINUTE, 10 * MINUTE, HOUR, 6 * HOUR, 24 * HOUR]);
    expect(MAX_DELIVERY_ATTEMPTS).toBe(7);
    expect(getRetryDelayMs({ attemptsMade: 7, random: noJitter })).toBeNull();
  });

  it("spreads each delay by at most ±20 %", () => {
    expect(getRetryDelayMs({ attemptsMade: 1, random: () => 0 })).toBe(24 * SECOND);
    expect(getRetryDelayMs({ attemptsMade: 1, random: () => 0.999_999_999 })).toBe(36 * SECOND);
    expect(getRetryDelayMs({ attemptsMade: 4, random: () => 0.75 })).toBe(66 * MINUTE);
    for (let sample = 0; sample < 200; sample += 1) {
      const delay = getRetryDelayMs({ attemptsMade: 2, random: Math.random }) ?? 0;
      expect(delay).toBeGreaterThanOrEqual(96 * SECOND);
      expect(delay).toBeLessThanOrEqual(144 * SECOND);
    }
  });
});

describe("computeNextAttemptAt", () => {
  const finishedAt = new Date("2026-11-21T10:00:00.000Z");
  const later = (ms: number) => new Date(finishedAt.getTime() + ms);

  it("follows the schedule when there is no Retry-After, and answers null after the 7th attempt", () => {
    expect(computeNextAttemptAt({ attemptsMade: 1, finishedAt, random: noJitter })).toEqual(later(30 * SECOND));
    expect(computeNextAttemptAt({ attemptsMade: 7, finishedAt, random: noJitter, retryAfterMs: 5 * SECOND })).toBeNull();
  });

  it("honours a Retry-After later than the schedule, and ignores an earlier one", () => {
    expect(computeNextAttemptAt({ attemptsMade: 1, finishedAt, random: noJitter, retryAfterMs: 120 * SECOND })).toEqual(
      later(120 * SECOND),
    );
    expect(computeNextAttemptAt({ attemptsMade: 3, finishedAt, random: noJitter, retryAfterMs: 120 * SECOND })).toEqual(
      later(10 * MINUTE),
    );
  });

  it("caps a Retry-After at 24 h", () => {
    expect(computeNextAttemptAt({ attemptsMade: 1, finishedAt, random: noJitter, retryAfterMs: 7 * 24 * HOUR })).toEqual(
      later(24 * HOUR),
    );
  });
});

describe("parseRetryAfter", () => {
  const nowMs = Date.parse("2026-11-21T10:00:00.000Z");

  it.each([
    ["120", 120 * SECOND],
    [" 0 ", 0],
    ["Sat, 21 Nov 2026 10:05:00 GMT", 5 * MINUTE],
    ["Sat, 21 Nov 2026 09:00:00 GMT", 0],
  ])("reads %j as %i ms", (value, expected) => {
    expect(parseRetryAfter(value, nowMs)).toBe(expected);
  });

  it.each([undefined, "", "soon", "-5", "1.5", "12abc"])("ignores %j", (value) => {
    expect(parseRetryAfter(value, nowMs)).toBeUndefined();
  });
});

describe("classifyAttempt", () => {
  it.each([200, 201, 202, 204, 299])("counts %i as success", (status) => {
    expect(classifyAttempt(response(status))).toBe("success");
  });

  it.each([408, 429, 500, 502, 503, 504, 599])("retries %i", (status) => {
    expect(classifyAttempt(response(status))).toBe("retry");
  });

  it.each([301, 302, 303, 307, 308, 400, 401, 403, 404, 409, 410, 413, 422, 100, 600])("fails %i at once", (status) => {
    expect(classifyAttempt(response(status))).toBe("fail");
  });

  it("retries timeouts and network errors, fails a blocked target at once", () => {
    expect(classifyAttempt({ kind: "timeout", durationMs: 1, error: "" })).toBe("retry");
    expect(classifyAttempt({ kind: "network-error", durationMs: 1, error: "ECONNREFUSED" })).toBe("retry");
    expect(classifyAttempt({ kind: "blocked-target", durationMs: 1, error: "private" })).toBe("fail");
  });
});
