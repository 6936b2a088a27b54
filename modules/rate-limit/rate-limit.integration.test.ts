// The action rate limiter on a fresh database: one atomic statement counts for every process, the
// window starts again once it is over, and a refusal answers 429 with Retry-After (docs/security.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import { toErrorResponse } from "@/modules/shared/errors/error-response";
import { silentLogger } from "@/modules/shared/logging/logger";
import { createTestDatabase } from "@/tests/support/test-database";
import { createRateLimitRepository, type RateLimitRepository } from "./rate-limit.repository";
import { consumeRateLimit, ensureWithinRateLimit, getRateLimitKey, refundRateLimit } from "./rate-limit.usecases";

let database: Database;
let repository: RateLimitRepository;
const rule = { keyPrefix: "test-action", limit: 5, windowMs: 60_000 };

beforeAll(async () => {
  database = await createTestDatabase();
  repository = createRateLimitRepository(database.prisma);
});
afterAll(() => database.close());

describe("the action rate limiter", () => {
  it("allows exactly the limit out of 50 parallel actions on one subject, and counts other subjects apart", async () => {
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, () => consumeRateLimit({ rule, subject: "parallel", repository })),
    );
    expect(verdicts.filter((verdict) => verdict.isAllowed)).toHaveLength(5);
    for (const verdict of verdicts) expect(verdict.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    for (const verdict of verdicts) expect(verdict.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await consumeRateLimit({ rule, subject: "someone-else", repository })).isAllowed).toBe(true);
  });

  it("starts a new window, counted from one, once the previous one is over", async () => {
    for (let index = 0; index < 6; index += 1) await consumeRateLimit({ rule, subject: "patient", repository });
    expect((await consumeRateLimit({ rule, subject: "patient", repository })).isAllowed).toBe(false);
    await database.prisma.actionRateLimit.update({
      where: { key: getRateLimitKey(rule, "patient") },
      data: { windowStart: new Date(Date.now() - 61_000) },
    });
    const verdict = await consumeRateLimit({ rule, subject: "patient", repository });
    expect(verdict.isAllowed).toBe(true);
    expect(
      (await database.prisma.actionRateLimit.findUniqueOrThrow({ where: { key: getRateLimitKey(rule, "patient") } })).count,
    ).toBe(1);
  });

  it("answers how long until the window ends, from the window's start", async () => {
    await consumeRateLimit({ rule, subject: "waiting", repository });
    await database.prisma.actionRateLimit.update({
      where: { key: getRateLimitKey(rule, "waiting") },
      data: { windowStart: new Date(Date.now() - 45_000) },
    });
    const { retryAfterSeconds } = await consumeRateLimit({ rule, subject: "waiting", repository });
    expect(retryAfterSeconds).toBeGreaterThanOrEqual(14);
    expect(retryAfterSeconds).toBeLessThanOrEqual(16);
  });

  it("refuses over the limit with 429 request.rate_limited and a Retry-After header in seconds", async () => {
    for (let index = 0; index < 5; index += 1) await ensureWithinRateLimit({ rule, subject: "refused", repository });
    const error = await ensureWithinRateLimit({ rule, subject: "refused", repository }).catch((caught: unknown) => caught);
    const response = toErrorResponse(error, silentLogger);
    expect(response.status).toBe(429);
    expect((await response.json()).error.code).toBe("request.rate_limited");
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThanOrEqual(59);
  });

  it("takes back a refunded action, never below zero", async () => {
    await consumeRateLimit({ rule, subject: "refunded", repository });
    await refundRateLimit({ rule, subject: "refunded", repository });
    await refundRateLimit({ rule, subject: "refunded", repository });
    expect(
      (await database.prisma.actionRateLimit.findUniqueOrThrow({ where: { key: getRateLimitKey(rule, "refunded") } })).count,
    ).toBe(0);
  });
});
