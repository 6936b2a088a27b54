// "Redeliver all failed" through its route handler on a fresh database: every failed mail of the
// address (within since/until) that still holds its body gets a new attempt series, like a single
// redelivery, in one call answering how many; other statuses, other addresses and mails whose body
// is gone stay as they are; another user's address is not found; the call is rate limited per
// address (docs/security.md).

import { describe, expect, it } from "vitest";
import * as redeliverAllRoute from "@/app/api/email-callbacks/[emailCallbackId]/redeliver/route";
import { RATE_LIMITS } from "@/modules/rate-limit/rate-limit.constants";
import { createId } from "@/modules/shared/ids";
import { recordDispatchedDeliveries } from "@/tests/support/recording-dispatcher";
import { setUpOwnerAndStranger, type TestUser } from "@/tests/support/route-test-app";
import { seedDeliveriesOf, seedEmailCallback } from "@/tests/support/seed";
import { BULK_REDELIVERY_MAX } from "./processings.usecases";

const suite = setUpOwnerAndStranger("bulk redeliver");

const dispatched = recordDispatchedDeliveries();

const seedCallback = async (user: TestUser = suite.owner) =>
  (await seedEmailCallback(suite.app.database, { userId: user.userId })).id;

type Seed = { status?: string; createdAt?: string; hasPayload?: boolean };

/** Mails with their deliveries (each holding its mail's delivery state, a failed one under an expired claim). */
async function seedProcessings(emailCallbackId: string, seeds: Seed[]) {
  const ids = seeds.map(() => createId("emailProcessing"));
  const rows = seeds.map(({ status = "error", createdAt = "2026-11-20T10:00:00Z", hasPayload = true }, index) => ({
    id: ids[index]!,
    emailCallbackId,
    fromAddress: "bob@example.org",
    subject: `Mail ${index}`,
    recipient: "inbox@hookmail.test",
    status,
    error: status === "error" ? "webhook-failed" : status === "not-processed" ? "not-enabled" : null,
    webhookResponseStatusCode: status === "error" ? 500 : status === "success" ? 200 : null,
    payload: hasPayload ? new Uint8Array(Buffer.from('{"type":"email.received"}')) : null,
    attemptCount: status === "pending" ? 2 : 7,
    nextAttemptAt: null,
    deliveredAt: status === "success" ? new Date("2026-11-20T10:00:01Z") : null,
    createdAt: new Date(createdAt),
  }));
  await suite.app.database.prisma.emailProcessing.createMany({ data: rows });
  await seedDeliveriesOf(
    suite.app.database,
    rows.map((row) => ({ ...row, lockedUntil: row.status === "error" ? new Date("2026-11-01T00:00:00Z") : null })),
  );
  return ids;
}

/** The deliveries of these mails, as the dispatcher is handed them. */
const deliveryIdsOf = async (processingIds: (string | undefined)[]) =>
  (
    await suite.app.database.prisma.delivery.findMany({
      where: { emailProcessingId: { in: processingIds.filter((id) => id !== undefined) } },
      select: { id: true },
    })
  ).map(({ id }) => id);

const redeliverAll = (emailCallbackId: string, body: unknown, headers: Record<string, string> = suite.owner.headers) =>
  suite.app.call(redeliverAllRoute.POST, {
    path: `/api/email-callbacks/${emailCallbackId}/redeliver`,
    method: "POST",
    headers,
    body,
    params: { emailCallbackId },
  });

const findRows = (ids: string[]) =>
  suite.app.database.prisma.emailProcessing.findMany({ where: { id: { in: ids } }, orderBy: { subject: "asc" } });

describe("POST /api/email-callbacks/{id}/redeliver", () => {
  it("restarts every failed mail that holds its body: 202 {count}, pending, 0 attempts, due now, no error, lock or code, dispatched", async () => {
    const callbackId = await seedCallback();
    const [failed1, failed2, success, notProcessed, pending, gone] = await seedProcessings(callbackId, [
      {},
      {},
      { status: "success" },
      { status: "not-processed", hasPayload: false },
      { status: "pending" },
      { hasPayload: false },
    ]);
    const otherCallbackFailed = await seedProcessings(await seedCallback(), [{}]);
    const startedAt = Date.now();

    const response = await redeliverAll(callbackId, { status: "error" });

    expect(response.status).toBe(202);
    expect(response.body).toEqual({ count: 2 });
    expect(dispatched.sort()).toEqual((await deliveryIdsOf([failed1, failed2])).sort());
    const deliveries = await suite.app.database.prisma.delivery.findMany({
      where: { emailProcessingId: { in: [failed1!, failed2!] } },
    });
    expect(deliveries.map((delivery) => delivery.lockedUntil)).toEqual([null, null]);
    for (const row of await findRows([failed1!, failed2!])) {
      expect(row).toMatchObject({
        status: "pending",
        error: null,
        webhookResponseStatusCode: null,
        attemptCount: 0,
        deliveredAt: null,
      });
      expect(row.nextAttemptAt?.getTime()).toBeGreaterThanOrEqual(startedAt - 1000);
      expect(row.nextAttemptAt?.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    }
    const untouched = await findRows([success!, notProcessed!, pending!, gone!, ...otherCallbackFailed]);
    expect(untouched.map((row) => [row.status, row.attemptCount])).toEqual([
      ["error", 7],
      ["success", 7],
      ["not-processed", 7],
      ["pending", 2],
      ["error", 7],
    ]);
  });

  it("restarts only the failed mails created from since (included) to until (excluded), by API key", async () => {
    const callbackId = await seedCallback();
    const [before, atSince, inside, atUntil] = await seedProcessings(callbackId, [
      { createdAt: "2026-11-19T23:59:59.999Z" },
      { createdAt: "2026-11-20T00:00:00.000Z" },
      { createdAt: "2026-11-20T12:00:00.000Z" },
      { createdAt: "2026-11-21T00:00:00.000Z" },
    ]);
    const response = await redeliverAll(
      callbackId,
      { status: "error", since: "2026-11-20T01:00:00+01:00", until: "2026-11-21T00:00:00Z" },
      suite.ownerKey,
    );
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ count: 2 });
    expect(dispatched.sort()).toEqual((await deliveryIdsOf([atSince, inside])).sort());
    expect((await findRows([before!, atUntil!])).map((row) => row.status)).toEqual(["error", "error"]);

    expect((await redeliverAll(callbackId, { status: "error", since: "2026-11-21T00:00:00Z" })).body).toEqual({ count: 1 });
    expect((await redeliverAll(callbackId, { status: "error", until: "2026-11-20T00:00:00Z" })).body).toEqual({ count: 1 });
  });

  it("answers {count: 0} and dispatches nothing when no failed mail matches", async () => {
    const callbackId = await seedCallback();
    await seedProcessings(callbackId, [{ status: "success" }]);
    const response = await redeliverAll(callbackId, { status: "error" });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ count: 0 });
    expect(dispatched).toEqual([]);
  });

  it(`restarts at most ${BULK_REDELIVERY_MAX} mails per call, the oldest first; the next call takes the rest`, async () => {
    const callbackId = await seedCallback();
    const start = Date.parse("2026-11-20T00:00:00Z");
    const ids = await seedProcessings(
      callbackId,
      Array.from({ length: BULK_REDELIVERY_MAX + 3 }, (_, index) => ({
        createdAt: new Date(start + index * 1000).toISOString(),
      })),
    );
    expect((await redeliverAll(callbackId, { status: "error" })).body).toEqual({ count: BULK_REDELIVERY_MAX });
    expect(new Set(dispatched)).toEqual(new Set(await deliveryIdsOf(ids.slice(0, BULK_REDELIVERY_MAX))));
    expect((await redeliverAll(callbackId, { status: "error" })).body).toEqual({ count: 3 });
  });

  it("lets two simultaneous calls restart each failed mail once", async () => {
    const callbackId = await seedCallback();
    const ids = await seedProcessings(
      callbackId,
      Array.from({ length: 40 }, () => ({})),
    );
    const responses = await Promise.all([
      redeliverAll(callbackId, { status: "error" }),
      redeliverAll(callbackId, { status: "error" }),
    ]);
    expect(responses.map((response) => response.status)).toEqual([202, 202]);
    expect(responses.reduce((sum, response) => sum + response.body?.count, 0)).toBe(40);
    expect(dispatched.sort()).toEqual((await deliveryIdsOf(ids)).sort());
  });

  it("answers 400 request.invalid_body for another status, a missing status, a bad time or until before since, and changes nothing", async () => {
    const callbackId = await seedCallback();
    const ids = await seedProcessings(callbackId, [{}]);
    for (const body of [
      { status: "success" },
      { status: "pending" },
      {},
      { status: "error", since: "yesterday" },
      { status: "error", until: "2026-11-20" },
      { status: "error", since: "2026-11-21T00:00:00Z", until: "2026-11-20T00:00:00Z" },
    ]) {
      const response = await redeliverAll(callbackId, body);
      expect(response.status).toBe(400);
      expect(response.body?.error.code).toBe("request.invalid_body");
    }
    expect((await findRows(ids)).map((row) => row.status)).toEqual(["error"]);
    expect(dispatched).toEqual([]);
  });

  it("answers 404 email_callback.not_found to another user (session or API key), for a deleted or unknown address, and 401 to no caller", async () => {
    const callbackId = await seedCallback();
    const ids = await seedProcessings(callbackId, [{}]);
    for (const headers of [suite.stranger.headers, suite.strangerKey]) {
      const response = await redeliverAll(callbackId, { status: "error" }, headers);
      expect(response.status).toBe(404);
      expect(response.body?.error.code).toBe("email_callback.not_found");
    }
    const deletedId = (await seedEmailCallback(suite.app.database, { userId: suite.owner.userId, deletedAt: new Date() })).id;
    await seedProcessings(deletedId, [{}]);
    for (const id of [deletedId, createId("emailCallback")]) {
      expect((await redeliverAll(id, { status: "error" })).status).toBe(404);
    }
    expect((await redeliverAll(callbackId, { status: "error" }, {})).status).toBe(401);
    expect((await findRows(ids)).map((row) => row.status)).toEqual(["error"]);
    expect(dispatched).toEqual([]);
  });

  it(`allows ${RATE_LIMITS.bulkRedelivery.limit} calls a minute per address, then answers 429 request.rate_limited with Retry-After and restarts nothing`, async () => {
    const callbackId = await seedCallback();
    for (let index = 0; index < RATE_LIMITS.bulkRedelivery.limit; index += 1) {
      expect((await redeliverAll(callbackId, { status: "error" })).status).toBe(202);
    }
    const ids = await seedProcessings(callbackId, [{}]);
    const refused = await redeliverAll(callbackId, { status: "error" });
    expect(refused.status).toBe(429);
    expect(refused.body?.error.code).toBe("request.rate_limited");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect((await findRows(ids)).map((row) => row.status)).toEqual(["error"]);
    expect(dispatched).toEqual([]);

    const otherCallbackId = await seedCallback();
    await seedProcessings(otherCallbackId, [{}]);
    expect((await redeliverAll(otherCallbackId, { status: "error" })).body).toEqual({ count: 1 });
  });
});
