// The worker's pacing with the storage and client replaced by fakes: the loop survives a failing
// database, the clean-up runs once a day, deliverSoon does not make its caller wait.
import { describe, expect, it, vi } from "vitest";
import { createDeliveryWorker } from "./delivery-worker";
import { getDeliveryDispatcher, setDeliveryDispatcher } from "./delivery-dispatcher";
import type { DeliveryRepository } from "./delivery.repository";

const HOUR = 3_600_000;

function createFakeRepository() {
  return {
    claimDueDeliveries: vi.fn<DeliveryRepository["claimDueDeliveries"]>(async () => []),
    claimDelivery: vi.fn<DeliveryRepository["claimDelivery"]>(async () => null),
    findDeliveryTarget: vi.fn<DeliveryRepository["findDeliveryTarget"]>(async () => null),
    recordAttempt: vi.fn<DeliveryRepository["recordAttempt"]>(async () => ({ isClaimHeld: true })),
    clearMessageContent: vi.fn<DeliveryRepository["clearMessageContent"]>(async () => 0),
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
    const log = vi.fn<(line: string) => void>();
    const worker = createDeliveryWorker({ repository, config, log, pollIntervalMs: 5 });
    worker.start();
    await waitFor(() => repository.claimDueDeliveries.mock.calls.length >= 3);
    await worker.stop();
    expect(log).toHaveBeenCalledWith("Claiming due deliveries failed: connection reset");
  });

  it("leases claims for the attempt's timeout plus a margin, and asks for no more than its free capacity", async () => {
    const repository = createFakeRepository();
    const now = new Date("2026-11-21T10:00:00.000Z");
    const worker = createDeliveryWorker({ repository, config, log: () => undefined, clock: () => now, concurrency: 5 });
    await worker.deliverDue();
    expect(repository.claimDueDeliveries).toHaveBeenCalledWith({ limit: 5, leaseMs: 61_000, now });
  });

  it("cleans up message content when it starts and then once a day, batch after batch", async () => {
    let now = new Date("2026-11-21T10:00:00.000Z");
    const repository = createFakeRepository();
    repository.clearMessageContent.mockResolvedValueOnce(500).mockResolvedValueOnce(500).mockResolvedValueOnce(12);
    const log = vi.fn<(line: string) => void>();
    const worker = createDeliveryWorker({ repository, config, log, clock: () => now, pollIntervalMs: 5 });
    worker.start();
    await waitFor(() => repository.clearMessageContent.mock.calls.length === 3);
    expect(repository.clearMessageContent).toHaveBeenCalledWith({ changedBefore: new Date(now.getTime() - 72 * HOUR), batchSize: 500 });
    now = new Date(now.getTime() + 23 * HOUR);
    const pollsBefore = repository.claimDueDeliveries.mock.calls.length;
    await waitFor(() => repository.claimDueDeliveries.mock.calls.length >= pollsBefore + 3);
    expect(repository.clearMessageContent).toHaveBeenCalledTimes(3);
    now = new Date(now.getTime() + 1 * HOUR);
    await waitFor(() => repository.clearMessageContent.mock.calls.length === 4);
    await worker.stop();
    expect(log).toHaveBeenCalledWith("Dropped the message content of 1012 processing(s) older than the retention.");
  });

  it("returns from deliverSoon at once, while the claims are still under way", async () => {
    const releaseClaims: ((value: null) => void)[] = [];
    const repository = createFakeRepository();
    repository.claimDelivery.mockImplementation(() => new Promise<null>((resolve) => releaseClaims.push(resolve)));
    const worker = createDeliveryWorker({ repository, config, log: () => undefined });
    expect(worker.deliverSoon(["ep_1", "ep_2"])).toBeUndefined();
    let isIdle = false;
    void worker.whenIdle().then(() => (isIdle = true));
    await waitFor(() => releaseClaims.length === 2);
    expect(isIdle).toBe(false);
    expect(repository.claimDelivery.mock.calls.map(([{ id }]) => id)).toEqual(["ep_1", "ep_2"]);
    for (const release of releaseClaims) release(null);
    await waitFor(() => isIdle);
  });
});

describe("the process's delivery dispatcher", () => {
  it("does nothing until one is set, then hands ids to the one set", () => {
    setDeliveryDispatcher(undefined);
    expect(() => getDeliveryDispatcher().deliverSoon(["ep_1"])).not.toThrow();
    const deliverSoon = vi.fn();
    setDeliveryDispatcher({ deliverSoon });
    getDeliveryDispatcher().deliverSoon(["ep_2"]);
    expect(deliverSoon).toHaveBeenCalledWith(["ep_2"]);
    setDeliveryDispatcher(undefined);
  });
});
