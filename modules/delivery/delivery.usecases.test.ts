// The rules of one attempt with the storage and the HTTP client replaced by fakes: what is recorded
// for each kind of answer, and that nothing unexpected is silenced.

import { describe, expect, it, vi } from "vitest";
import { createMemoryLogger } from "@/tests/support/memory-logger";
import type { DeliveryRepository, DeliveryTarget } from "./delivery.repository";
import { attemptDelivery } from "./delivery.usecases";
import type { WebhookClient, WebhookResult } from "./webhook-client";

const now = new Date("2026-11-21T10:00:00.000Z");
const lockedUntil = new Date("2026-11-21T10:01:15.000Z");
const target: DeliveryTarget = {
  id: "dlv_1",
  processingId: "ep_1",
  recipient: "inbox@hookmail.test",
  endpointId: "ept_1",
  status: "pending",
  attemptCount: 0,
  body: new Uint8Array(Buffer.from('{"type":"email.received"}')),
  url: "https://hooks.example.com/in",
  format: "json",
  signingScheme: "hmac",
  secret: "s".repeat(24),
  publicKey: null,
  privateKeyEncrypted: null,
  headers: {},
  timeoutMs: null,
  isEnabled: true,
  isDeleted: false,
};

function setUp({
  found = target as DeliveryTarget | null,
  result = { kind: "response", statusCode: 200, durationMs: 12, bodyExcerpt: "ok" } as WebhookResult,
  recordAttempt = vi.fn<DeliveryRepository["recordAttempt"]>(async () => ({ isClaimHeld: true })),
} = {}) {
  const repository = {
    claimDueDeliveries: vi.fn(),
    claimDelivery: vi.fn(),
    clearMessageContent: vi.fn(),
    findDeliveryTarget: vi.fn(async () => found),
    recordAttempt,
  } as unknown as DeliveryRepository;
  const postWebhook = vi.fn<WebhookClient["postWebhook"]>(async () => result);
  const { logger, entries: log } = createMemoryLogger();
  const run = () =>
    attemptDelivery({
      id: "dlv_1",
      lockedUntil,
      repository,
      client: { postWebhook },
      config: { webhook: { timeoutMs: 15_000, allowPrivateTargets: false } },
      now: () => now,
      random: () => 0.5,
      logger,
    });
  return { run, postWebhook, recordAttempt, log };
}

describe("attemptDelivery", () => {
  it("POSTs the body to the endpoint's URL with the contract's headers (webhook-id the processing's), the configured timeout and the SSRF setting", async () => {
    const { run, postWebhook } = setUp();
    expect(await run()).toEqual({ kind: "success" });
    expect(postWebhook).toHaveBeenCalledWith({
      url: target.url,
      body: target.body,
      timeoutMs: 15_000,
      allowPrivateTargets: false,
      headers: expect.objectContaining({
        "webhook-id": "ep_1",
        "webhook-timestamp": String(now.getTime() / 1000),
        "webhook-signature": expect.stringMatching(/^v1,/),
      }),
    });
  });

  it("gives the request the endpoint's own timeout when it has one", async () => {
    const { run, postWebhook } = setUp({ found: { ...target, timeoutMs: 2_500 } });
    await run();
    expect(postWebhook).toHaveBeenCalledWith(expect.objectContaining({ timeoutMs: 2_500 }));
  });

  it("records a success with its attempt under the claim", async () => {
    const { run, recordAttempt } = setUp();
    await run();
    expect(recordAttempt).toHaveBeenCalledWith({
      claim: { id: "dlv_1", lockedUntil },
      attempt: { attemptedAt: now, statusCode: 200, durationMs: 12, error: null, responseBody: "ok" },
      change: { status: "success", webhookResponseStatusCode: 200, deliveredAt: now },
    });
  });

  it("records a network error as a retry with the error and no status code", async () => {
    const { run, recordAttempt } = setUp({ result: { kind: "network-error", durationMs: 3, error: "connect ECONNREFUSED" } });
    expect(await run()).toEqual({ kind: "retry-scheduled" });
    expect(recordAttempt).toHaveBeenCalledWith({
      claim: { id: "dlv_1", lockedUntil },
      attempt: {
        attemptedAt: now,
        statusCode: null,
        durationMs: 3,
        error: "network-error: connect ECONNREFUSED",
        responseBody: null,
      },
      change: { status: "pending", nextAttemptAt: new Date(now.getTime() + 30_000), webhookResponseStatusCode: null },
    });
  });

  it("fails a retryable answer on the 7th attempt", async () => {
    const { run, recordAttempt } = setUp({
      found: { ...target, attemptCount: 6 },
      result: { kind: "response", statusCode: 503, durationMs: 3, bodyExcerpt: "" },
    });
    expect(await run()).toEqual({ kind: "failed" });
    expect(recordAttempt.mock.calls[0]?.[0].change).toEqual({
      status: "error",
      error: "webhook-failed",
      webhookResponseStatusCode: 503,
    });
  });

  it("skips a delivery that is gone or no longer pending, without a request", async () => {
    const gone = setUp({ found: null });
    expect(await gone.run()).toEqual({ kind: "skipped", reason: "not-found" });
    const done = setUp({ found: { ...target, status: "success" } });
    expect(await done.run()).toEqual({ kind: "skipped", reason: "not-pending" });
    expect(gone.postWebhook).not.toHaveBeenCalled();
    expect(done.postWebhook).not.toHaveBeenCalled();
    expect(done.recordAttempt).not.toHaveBeenCalled();
  });

  it("reports and logs an outcome it could not apply because the claim was taken over", async () => {
    const { run, log } = setUp({ recordAttempt: vi.fn(async () => ({ isClaimHeld: false })) });
    expect(await run()).toEqual({ kind: "skipped", reason: "claim-lost" });
    expect(log).toContainEqual(
      expect.objectContaining({
        msg: "The claim expired during the attempt: its outcome was not applied",
        deliveryId: "dlv_1",
        outcome: "success",
      }),
    );
  });

  it("logs, and never throws, when even recording the unexpected failure fails", async () => {
    const { run, log } = setUp({ recordAttempt: vi.fn(async () => Promise.reject(new Error("database down"))) });
    expect(await run()).toEqual({ kind: "unknown-error" });
    expect(log).toEqual([
      expect.objectContaining({
        msg: "Delivery failed unexpectedly",
        deliveryId: "dlv_1",
        err: expect.objectContaining({ stack: expect.stringMatching(/^Error: database down/) }),
      }),
      expect.objectContaining({
        msg: "Could not record the failure of a delivery",
        deliveryId: "dlv_1",
        err: expect.objectContaining({ message: "database down" }),
      }),
    ]);
  });
});
