// The worker's pacing with the storage and client replaced by fakes: the loop survives a failing
// database, the clean-up runs once a day, deliverSoon does not make its caller wait.

import { describe, expect, it, vi } from "vitest";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { createMemoryLogger, silentLogger } from "@/tests/support/memory-logger";
import { ENDPOINT_TIMEOUT_MAX_MS } from "./delivery.constants";
import type { DeliveryRepository, DeliveryTarget } from "./delivery.repository";
import { createDeliveryWorker } from "./delivery-worker";

const HOUR = 3_600_000;

function createFakeRepository() {
  return {
    claimDueDeliveries: vi.fn<DeliveryRepository["claimDueDeliveries"]>(async () => []),
    claimDelivery: vi.fn<DeliveryRepository["claimDelivery"]>(async () => null),
    findDeliveryTarget: vi.fn<DeliveryRepository["findDeliveryTarget"]>(async () => null),
    recordAttempt: vi.fn<DeliveryRepository["recordAttempt"]>(async () => ({ isClaimHeld: true })),
    clearMessageContent: vi.fn<DeliveryRepository["clearMessageContent"]>(async () => 0),
    renewClaim: vi.fn<DeliveryRepository["renewClaim"]>(async ({ claim, leaseMs, now }) => ({
      ...claim,
      lockedUntil: new Date(now.getTime() + leaseMs),
    })),
    releaseClaim: vi.fn<DeliveryRepository["releaseClaim"]>(async () => undefined),
  };
}

const config = { webhook: { timeoutMs: 1000, allowPrivateTargets: false } };
const waitFor = async (condition: () => boolean) => {
  for (let tries = 0; tries < 200 && !condition(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
};

describe("createDeliveryWorker", () => {
  it("keeps polling after a failed claim query, and logs the failure", async () => {
    const repository = createFakeRepository();
    repository.claimDueDeliveries.mockRejectedValueOnce(new Error("connection reset"));
    const { logger, entries } = createMemoryLogger();
    const worker = createDeliveryWorker({ metrics: createProcessMetrics(), repository, config, logger, pollIntervalMs: 5 });
    worker.start();
    await waitFor(() => repository.claimDueDeliveries.mock.calls.length >= 3);
    await worker.stop();
    expect(entries).toContainEqual(
      expect.objectContaining({
        msg: "Claiming due deliveries failed",
        err: expect.objectContaining({ message: "connection reset" }),
      }),
    );
  });

  it("leases claims for the attempt's timeout plus a margin, and asks for no more than its free capacity", async () => {
    const repository = createFakeRepository();
    const now = new Date("2026-11-21T10:00:00.000Z");
    const worker = createDeliveryWorker({
      metrics: createProcessMetrics(),
      repository,
      config,
      logger: silentLogger,
      clock: () => now,
      concurrency: 5,
    });
    await worker.deliverDue();
    expect(repository.claimDueDeliveries).toHaveBeenCalledWith({ limit: 5, leaseMs: 61_000, now });
  });

  it("cleans up message content when it starts and then once a day, batch after batch", async () => {
    let now = new Date("2026-11-21T10:00:00.000Z");
    const repository = createFakeRepository();
    repository.clearMessageContent.mockResolvedValueOnce(500).mockResolvedValueOnce(500).mockResolvedValueOnce(12);
    const { logger, entries } = createMemoryLogger();
    const worker = createDeliveryWorker({
      metrics: createProcessMetrics(),
      repository,
      config,
      logger,
      clock: () => now,
      pollIntervalMs: 5,
    });
    worker.start();
    await waitFor(() => repository.clearMessageContent.mock.calls.length === 3);
    expect(repository.clearMessageContent).toHaveBeenCalledWith({
      changedBefore: new Date(now.getTime() - 72 * HOUR),
      batchSize: 500,
    });
    now = new Date(now.getTime() + 23 * HOUR);
    const pollsBefore = repository.claimDueDeliveries.mock.calls.length;
    await waitFor(() => repository.claimDueDeliveries.mock.calls.length >= pollsBefore + 3);
    expect(repository.clearMessageContent).toHaveBeenCalledTimes(3);
    now = new Date(now.getTime() + 1 * HOUR);
    await waitFor(() => repository.clearMessageContent.mock.calls.length === 4);
    await worker.stop();
    expect(entries).toContainEqual(
      expect.objectContaining({ msg: "Dropped the message content of processings older than the retention", processings: 1012 }),
    );
  });

  it("returns from deliverSoon at once, while the claims are still under way", async () => {
    const releaseClaims: ((value: null) => void)[] = [];
    const repository = createFakeRepository();
    repository.claimDelivery.mockImplementation(() => new Promise<null>((resolve) => releaseClaims.push(resolve)));
    const worker = createDeliveryWorker({ metrics: createProcessMetrics(), repository, config, logger: silentLogger });
    expect(worker.deliverSoon(["dlv_1", "dlv_2"])).toBeUndefined();
    let isIdle = false;
    void worker.whenIdle().then(() => (isIdle = true));
    await waitFor(() => releaseClaims.length === 2);
    expect(isIdle).toBe(false);
    expect(repository.claimDelivery.mock.calls.map(([{ id }]) => id)).toEqual(["dlv_1", "dlv_2"]);
    for (const release of releaseClaims) release(null);
    await waitFor(() => isIdle);
  });

  it("attempts a claim taken at write time with the target it carries, without claiming or reading again", async () => {
    const repository = createFakeRepository();
    const postWebhook = vi.fn(async () => ({ kind: "response" as const, statusCode: 200, durationMs: 1, bodyExcerpt: "ok" }));
    const now = new Date("2026-11-21T10:00:00.000Z");
    const worker = createDeliveryWorker({
      metrics: createProcessMetrics(),
      repository,
      config,
      logger: silentLogger,
      client: { postWebhook },
      clock: () => now,
    });
    const target: DeliveryTarget = {
      id: "dlv_1",
      processingId: "ep_1",
      recipient: "inbox@hookmail.test",
      endpointId: "ept_1",
      status: "pending",
      attemptCount: 0,
      body: Buffer.from("{}"),
      url: "https://hooks.example.com/in",
      format: "json",
      signingScheme: "none",
      secret: null,
      publicKey: null,
      privateKeyEncrypted: null,
      headers: {},
      timeoutMs: null,
      isEnabled: true,
      isDeleted: false,
    };
    worker.deliverClaimed([{ id: "dlv_1", lockedUntil: new Date(now.getTime() + 61_000), target }]);
    await worker.whenIdle();
    expect(postWebhook).toHaveBeenCalledTimes(1);
    expect(repository.claimDelivery).not.toHaveBeenCalled();
    expect(repository.findDeliveryTarget).not.toHaveBeenCalled();
    expect(repository.renewClaim).not.toHaveBeenCalled();
    expect(repository.recordAttempt.mock.calls[0]?.[0].change.status).toBe("success");
  });

  it("renews a claim taken at write time without its target when less than the longest endpoint timeout plus a margin is left, and skips it when the renewal fails", async () => {
    const repository = createFakeRepository();
    const postWebhook = vi.fn(async () => ({ kind: "response" as const, statusCode: 200, durationMs: 1, bodyExcerpt: "ok" }));
    const now = new Date("2026-11-21T10:00:00.000Z");
    const worker = createDeliveryWorker({
      metrics: createProcessMetrics(),
      repository,
      config,
      logger: silentLogger,
      client: { postWebhook },
      clock: () => now,
      leaseMs: 30_000,
    });
    // Its endpoint's timeout is not known before its target is read: the longest an endpoint may set
    // (ENDPOINT_TIMEOUT_MAX_MS, 30 s) and the 5 s margin count: 36 s left is enough, 34 s is not.
    worker.deliverClaimed([{ id: "dlv_1", lockedUntil: new Date(now.getTime() + ENDPOINT_TIMEOUT_MAX_MS + 6_000) }]);
    await worker.whenIdle();
    expect(repository.renewClaim).not.toHaveBeenCalled();
    worker.deliverClaimed([{ id: "dlv_2", lockedUntil: new Date(now.getTime() + ENDPOINT_TIMEOUT_MAX_MS + 4_000) }]);
    await worker.whenIdle();
    expect(repository.renewClaim).toHaveBeenCalledWith(expect.objectContaining({ leaseMs: 30_000, now }));
    expect(repository.findDeliveryTarget.mock.calls.map(([id]) => id)).toEqual(["dlv_1", "dlv_2"]);
    repository.renewClaim.mockResolvedValueOnce(null);
    worker.deliverClaimed([{ id: "dlv_3", lockedUntil: new Date(now.getTime() + 1_000) }]);
    await worker.whenIdle();
    expect(repository.findDeliveryTarget.mock.calls.map(([id]) => id)).toEqual(["dlv_1", "dlv_2"]);
  });

  it("renews a claim taken at write time against its endpoint's own timeout when that is longer than the configured one", async () => {
    const repository = createFakeRepository();
    const postWebhook = vi.fn(async () => ({ kind: "response" as const, statusCode: 200, durationMs: 1, bodyExcerpt: "ok" }));
    const now = new Date("2026-11-21T10:00:00.000Z");
    const worker = createDeliveryWorker({
      metrics: createProcessMetrics(),
      repository,
      config,
      logger: silentLogger,
      client: { postWebhook },
      clock: () => now,
      leaseMs: 30_000,
    });
    const target: DeliveryTarget = {
      id: "dlv_1",
      processingId: "ep_1",
      recipient: "inbox@hookmail.test",
      endpointId: "ept_1",
      status: "pending",
      attemptCount: 0,
      body: Buffer.from("{}"),
      url: "https://hooks.example.com/in",
      format: "json",
      signingScheme: "none",
      secret: null,
      publicKey: null,
      privateKeyEncrypted: null,
      headers: {},
      timeoutMs: 10_000,
      isEnabled: true,
      isDeleted: false,
    };
    // 6.5 s would do for the configured 1 s, not for the endpoint's 10 s: the lease could run out mid-attempt.
    worker.deliverClaimed([{ id: "dlv_1", lockedUntil: new Date(now.getTime() + 6_500), target }]);
    await worker.whenIdle();
    expect(repository.renewClaim).toHaveBeenCalledWith(expect.objectContaining({ leaseMs: 30_000, now }));
    expect(postWebhook).toHaveBeenCalledWith(expect.objectContaining({ timeoutMs: 10_000 }));
  });

  it("takes claims while its queue has room, none once it is full or stopping, and gives unstarted claims back on stop", async () => {
    const repository = createFakeRepository();
    const releases: (() => void)[] = [];
    repository.findDeliveryTarget.mockImplementation(() => new Promise((resolve) => releases.push(() => resolve(null))));
    const worker = createDeliveryWorker({
      metrics: createProcessMetrics(),
      repository,
      config,
      logger: silentLogger,
      concurrency: 1,
      leaseMs: 20_000,
    });
    const claim = (id: string) => ({ id, lockedUntil: new Date(Date.now() + 20_000) });
    expect(worker.getClaimLeaseMs()).toBe(20_000);
    worker.deliverClaimed([claim("dlv_1"), claim("dlv_2")]);
    expect(worker.getClaimLeaseMs()).toBeNull();
    await waitFor(() => releases.length === 1);
    const stopped = worker.stop();
    expect(worker.getClaimLeaseMs()).toBeNull();
    releases[0]!();
    await stopped;
    expect(repository.releaseClaim.mock.calls.map(([{ id }]) => id)).toEqual(["dlv_2"]);
  });
});
