// When a failed attempt is tried again (docs/webhooks.md): about 30 s, 2 min, 10 min, 1 h, 6 h and 24 h
// after the 1st to 6th failure, ±20 % jitter, a later Retry-After honoured up to 24 h; 7 attempts in all.
import { MAX_DELIVERY_ATTEMPTS, MAX_RETRY_AFTER_MS, RETRY_DELAYS_MS, RETRY_JITTER_RATIO } from "./delivery.constants";
import type { WebhookResult } from "./webhook-result";

export type AttemptClassification = "success" | "retry" | "fail";

/** 2xx succeeds; a timeout, a network error, 408, 429 and 5xx are retried; anything else fails at once. */
export function classifyAttempt(result: WebhookResult): AttemptClassification {
  switch (result.kind) {
    case "timeout":
    case "network-error":
      return "retry";
    case "blocked-target":
      return "fail";
    case "response": {
      const { statusCode } = result;
      if (statusCode >= 200 && statusCode < 300) return "success";
      if (statusCode === 408 || statusCode === 429 || (statusCode >= 500 && statusCode < 600)) return "retry";
      return "fail";
    }
  }
}

/** The jittered wait after `attemptsMade` attempts, or null when that was the last one. `random` is in [0, 1). */
export function getRetryDelayMs({ attemptsMade, random }: { attemptsMade: number; random: () => number }): number | null {
  if (attemptsMade < 1 || attemptsMade >= MAX_DELIVERY_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return null;
  const spread = (random() * 2 - 1) * RETRY_JITTER_RATIO;
  return Math.round(base * (1 + spread));
}

/** When the next attempt is due, or null when no attempt remains. */
export function computeNextAttemptAt({
  attemptsMade,
  finishedAt,
  retryAfterMs,
  random,
}: {
  attemptsMade: number;
  finishedAt: Date;
  retryAfterMs?: number;
  random: () => number;
}): Date | null {
  const scheduledMs = getRetryDelayMs({ attemptsMade, random });
  if (scheduledMs === null) return null;
  const requestedMs = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return new Date(finishedAt.getTime() + Math.max(scheduledMs, requestedMs));
}

/** A Retry-After header (delay in seconds, or an HTTP date) as milliseconds from `nowMs`; undefined when absent or invalid. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
