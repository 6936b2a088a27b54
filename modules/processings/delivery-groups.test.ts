import { describe, expect, it } from "vitest";
import { canRedeliverDelivery, groupDeliveries } from "./delivery-groups";
import type { ApiDeliveryAttempt, ApiProcessingDelivery } from "./processings.models";

const delivery = (endpointId: string, overrides: Partial<ApiProcessingDelivery> = {}): ApiProcessingDelivery => ({
  endpointId,
  status: "success",
  attemptCount: 1,
  nextAttemptAt: null,
  lastStatusCode: 200,
  ...overrides,
});

const attempt = (id: string, endpointId: string | null, statusCode = 200): ApiDeliveryAttempt => ({
  id,
  attemptedAt: "2026-11-28T10:00:00.000Z",
  statusCode,
  durationMs: 12,
  error: null,
  responseBody: null,
  endpointId,
});

const endpoints = [
  { id: "ep_a", url: "https://a.example/hook", format: "json" },
  { id: "ep_b", url: "https://b.example/hook", format: "raw" },
];

describe("groupDeliveries", () => {
  it("gives each delivery its endpoint, numbered from 1 in the address's order, and only its own attempts, newest first kept", () => {
    const groups = groupDeliveries({
      deliveries: [delivery("ep_a"), delivery("ep_b", { status: "error", lastStatusCode: 500 })],
      attempts: [attempt("at_3", "ep_b", 500), attempt("at_2", "ep_a"), attempt("at_1", "ep_b", 500)],
      endpoints,
    });
    expect(groups.map((group) => group.endpoint)).toEqual([
      { ...endpoints[0], number: 1 },
      { ...endpoints[1], number: 2 },
    ]);
    expect(groups.map((group) => group.attempts.map(({ id }) => id))).toEqual([["at_2"], ["at_3", "at_1"]]);
  });

  it("names no endpoint for a delivery whose endpoint was deleted, and still lists its attempts", () => {
    const [removed, kept] = groupDeliveries({
      deliveries: [delivery("ep_gone"), delivery("ep_b")],
      attempts: [attempt("at_1", "ep_gone"), attempt("at_2", "ep_b")],
      endpoints: [endpoints[1]!],
    });
    expect(removed?.endpoint).toBeNull();
    expect(removed?.attempts.map(({ id }) => id)).toEqual(["at_1"]);
    expect(kept?.endpoint?.number).toBe(1);
  });

  it("puts an attempt that names no endpoint (older than endpoints) in the first delivery, and leaves out one of no delivery", () => {
    const groups = groupDeliveries({
      deliveries: [delivery("ep_a"), delivery("ep_b")],
      attempts: [attempt("at_new", "ep_b"), attempt("at_old", null), attempt("at_other", "ep_unknown")],
      endpoints,
    });
    expect(groups.map((group) => group.attempts.map(({ id }) => id))).toEqual([["at_old"], ["at_new"]]);
  });
});

describe("canRedeliverDelivery", () => {
  it("allows a delivery that ended, or waits for its next retry, and not one whose first attempt is still to come", () => {
    expect(canRedeliverDelivery(delivery("ep_a", { status: "success" }))).toBe(true);
    expect(canRedeliverDelivery(delivery("ep_a", { status: "error" }))).toBe(true);
    expect(
      canRedeliverDelivery(delivery("ep_a", { status: "pending", attemptCount: 1, nextAttemptAt: "2026-11-28T11:00:00.000Z" })),
    ).toBe(true);
    expect(canRedeliverDelivery(delivery("ep_a", { status: "pending", attemptCount: 0 }))).toBe(false);
  });
});
