// The action rate limiter (docs/security.md): a fixed-window counter per rule and subject (an
// address id, a normalised email), kept in the database so that every process counts together.
import { createRateLimitedError } from "@/modules/shared/errors/app-error";
import type { RateLimitRule } from "./rate-limit.constants";
import type { RateLimitRepository } from "./rate-limit.repository";

export type RateLimitVerdict = { isAllowed: boolean; retryAfterSeconds: number };

export const getRateLimitKey = (rule: RateLimitRule, subject: string) => `${rule.keyPrefix}:${subject}`;

/** One rule applied to one subject (a user id, a client address), counted in a repository. */
export type RateLimitInput = { rule: RateLimitRule; subject: string; repository: RateLimitRepository };

/** Counts one action of `subject` and answers whether it is within the rule's limit. */
export async function consumeRateLimit({ rule, subject, repository }: RateLimitInput): Promise<RateLimitVerdict> {
  const { count, retryAfterSeconds } = await repository.incrementCount({
    key: getRateLimitKey(rule, subject),
    windowMs: rule.windowMs,
  });
  return { isAllowed: count <= rule.limit, retryAfterSeconds };
}

/** Counts one action of `subject`; over the limit throws 429 request.rate_limited with its Retry-After. */
export async function ensureWithinRateLimit(args: RateLimitInput): Promise<void> {
  const { isAllowed, retryAfterSeconds } = await consumeRateLimit(args);
  if (!isAllowed) throw createRateLimitedError(retryAfterSeconds);
}

/** Takes back one counted action of `subject` (it turned out not to be one the rule limits). */
export async function refundRateLimit({ rule, subject, repository }: RateLimitInput): Promise<void> {
  await repository.decrementCount(getRateLimitKey(rule, subject));
}
