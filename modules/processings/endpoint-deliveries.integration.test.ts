// A mail's deliveries, one per endpoint, through the route handlers on a fresh database: redelivering
// one endpoint's delivery (restarted when it has ended or waits for its next retry, refused only while
// an attempt of it runs, not found for an endpoint without a delivery of the mail), the detail call's
// deliveries in the endpoints' order, and attempts naming their endpoint (docs/webhooks.md: Destinations).
import { describe, expect, it } from "vitest";
import * as attemptsRoute from "@/app/api/email-callbacks/[emailCallbackId]/processings/[processingId]/attempts/route";
import * as redeliverRoute from "@/app/api/email-callbacks/[emailCallbackId]/processings/[processingId]/redeliver/route";
import * as detailRoute from "@/app/api/email-callbacks/[emailCallbackId]/processings/[processingId]/route";
import { createId } from "@/modules/shared/ids";
import { recordDispatchedDeliveries } from "@/tests/support/recording-dispatcher";
import { setUpOwnerAndStranger } from "@/tests/support/route-test-app";
import { seedEmailCallback } from "@/tests/support/seed";

const suite = setUpOwnerAndStranger("endpoint-deliveries");
const dispatched = recordDispatchedDeliveries();
const prisma = () => suite.app.database.prisma;

type DeliverySeed = { status: string; attemptCount?: number; nextAttemptAt?: Date | null; lockedUntil?: Date | null };

/** An address of the owner with two endpoints (its webhook first), answering their ids. */
async function seedAddressWithTwoEndpoints(userId = suite.owner.userId) {
  const { id: emailCallbackId } = await seedEmailCallback(suite.app.database, { userId });
  const first = await prisma().endpoint.findFirstOrThrow({ where: { emailCallbackId }, select: { id: true, createdAt: true } });
  const second = await prisma().endpoint.create({
    data: {
      id: createId("endpoint"),
      emailCallbackId,
      url: "https://hooks.example.com/second",
      secret: "second-secret-0123456789",
      createdAt: new Date(first.createdAt.getTime() + 1000),
    },
  });
  return { emailCallbackId, firstId: first.id, secondId: second.id };
}

/** A mail of the address with its content kept (or not), delivered to each endpoint as given; answers its id and the deliveries' ids. */
async function seedMail(emailCallbackId: string, deliveries: Record<string, DeliverySeed>, { hasContent = true } = {}) {
  const id = createId("emailProcessing");
  await prisma().emailProcessing.create({
    data: {
      id,
      emailCallbackId,
      fromAddress: "bob@example.org",
      recipient: "alice@hookmail.test",
      status: "error",
      payload: hasContent ? new Uint8Array(Buffer.from('{"type":"email.received"}')) : null,
      rawMessage: hasContent ? new Uint8Array(Buffer.from("Subject: Hi\r\n\r\nHi\r\n")) : null,
    },
  });
  const deliveryIds: Record<string, string> = {};
  // Written in reverse: the detail's order is the endpoints', not the deliveries'.
  for (const [endpointId, seed] of Object.entries(deliveries).reverse()) {
    const { id: deliveryId } = await prisma().delivery.create({
      data: {
        id: createId("delivery"),
        emailProcessingId: id,
        endpointId,
        attemptCount: 1,
        lastStatusCode: seed.status === "success" ? 200 : 500,
        error: seed.status === "error" ? "webhook-failed" : null,
        ...seed,
      },
    });
    deliveryIds[endpointId] = deliveryId;
  }
  return { id, deliveryIds };
}

const redeliver = (emailCallbackId: string, processingId: string, body?: unknown, headers = suite.owner.headers) =>
  suite.app.call(redeliverRoute.POST, {
    path: `/api/email-callbacks/${emailCallbackId}/processings/${processingId}/redeliver`,
    method: "POST",
    body,
    headers,
    params: { emailCallbackId, processingId },
  });

const findDelivery = (id: string) => prisma().delivery.findUniqueOrThrow({ where: { id } });

const FUTURE = new Date(Date.now() + 3_600_000);
const PAST = new Date(Date.now() - 3_600_000);

describe("POST …/processings/{id}/redeliver with an endpointId", () => {
  it.each<[string, DeliverySeed]>([
    ["that ended in error", { status: "error" }],
    ["that succeeded", { status: "success" }],
    ["that waits for its next retry", { status: "pending", nextAttemptAt: FUTURE }],
    ["whose attempt's lease has run out", { status: "pending", nextAttemptAt: PAST, lockedUntil: PAST }],
  ])("restarts a delivery %s now, alone: 202, pending, no attempt made, dispatched", async (_, seed) => {
    const { emailCallbackId, firstId, secondId } = await seedAddressWithTwoEndpoints();
    const mail = await seedMail(emailCallbackId, { [firstId]: { status: "success" }, [secondId]: seed });
    const startedAt = Date.now();
    const response = await redeliver(emailCallbackId, mail.id, { endpointId: secondId });
    expect(response.status).toBe(202);
    expect(response.body?.emailProcessing).toMatchObject({ id: mail.id, status: "pending" });
    const restarted = await findDelivery(mail.deliveryIds[secondId]!);
    expect(restarted).toMatchObject({ status: "pending", attemptCount: 0, lockedUntil: null, error: null, lastStatusCode: null });
    expect(restarted.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(restarted.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await findDelivery(mail.deliveryIds[firstId]!)).toMatchObject({ status: "success", attemptCount: 1 });
    expect(dispatched).toEqual([mail.deliveryIds[secondId]]);
  });

  it("answers 409 email_processing.delivery_in_progress while an attempt of it runs, and changes nothing", async () => {
    const { emailCallbackId, firstId, secondId } = await seedAddressWithTwoEndpoints();
    const mail = await seedMail(emailCallbackId, {
      [firstId]: { status: "error" },
      [secondId]: { status: "pending", nextAttemptAt: PAST, lockedUntil: FUTURE },
    });
    const before = await findDelivery(mail.deliveryIds[secondId]!);
    const response = await redeliver(emailCallbackId, mail.id, { endpointId: secondId });
    expect(response.status).toBe(409);
    expect(response.body?.error.code).toBe("email_processing.delivery_in_progress");
    expect(await findDelivery(mail.deliveryIds[secondId]!)).toEqual(before);
    expect(dispatched).toEqual([]);
    // The other endpoint's delivery, which ended, still restarts.
    expect((await redeliver(emailCallbackId, mail.id, { endpointId: firstId })).status).toBe(202);
  });

  it("answers 409 email_processing.message_gone once the mail's content is gone", async () => {
    const { emailCallbackId, firstId, secondId } = await seedAddressWithTwoEndpoints();
    const mail = await seedMail(
      emailCallbackId,
      { [firstId]: { status: "error" }, [secondId]: { status: "error" } },
      { hasContent: false },
    );
    const response = await redeliver(emailCallbackId, mail.id, { endpointId: secondId });
    expect(response.status).toBe(409);
    expect(response.body?.error.code).toBe("email_processing.message_gone");
  });

  it("answers 404 endpoint.not_found for an endpoint without a delivery of the mail, another address's, or unknown", async () => {
    const { emailCallbackId, firstId, secondId } = await seedAddressWithTwoEndpoints();
    const mail = await seedMail(emailCallbackId, { [firstId]: { status: "error" } });
    const elsewhere = await seedAddressWithTwoEndpoints();
    const strangers = await seedAddressWithTwoEndpoints(suite.stranger.userId);
    for (const endpointId of [secondId, elsewhere.firstId, strangers.firstId, "ept_unknown"]) {
      const response = await redeliver(emailCallbackId, mail.id, { endpointId });
      expect(response.status).toBe(404);
      expect(response.body?.error.code).toBe("endpoint.not_found");
    }
    expect(dispatched).toEqual([]);
  });

  it("answers 404 email_callback.not_found to another user, even naming the endpoint", async () => {
    const { emailCallbackId, firstId } = await seedAddressWithTwoEndpoints();
    const mail = await seedMail(emailCallbackId, { [firstId]: { status: "error" } });
    const response = await redeliver(emailCallbackId, mail.id, { endpointId: firstId }, suite.strangerKey);
    expect(response.status).toBe(404);
    expect(response.body?.error.code).toBe("email_callback.not_found");
  });

  it("answers 400 request.invalid_body for an endpointId that is not a string", async () => {
    const { emailCallbackId, firstId } = await seedAddressWithTwoEndpoints();
    const mail = await seedMail(emailCallbackId, { [firstId]: { status: "error" } });
    const response = await redeliver(emailCallbackId, mail.id, { endpointId: 42 });
    expect(response.status).toBe(400);
    expect(response.body?.error.code).toBe("request.invalid_body");
  });
});

describe("POST …/processings/{id}/redeliver without an endpointId", () => {
  it.each([
    ["no body", undefined],
    ["an empty object", {}],
  ])("with %s, restarts every delivery that ended in error and leaves the successful ones", async (_, body) => {
    const { emailCallbackId, firstId, secondId } = await seedAddressWithTwoEndpoints();
    const mail = await seedMail(emailCallbackId, { [firstId]: { status: "success" }, [secondId]: { status: "error" } });
    const response = await redeliver(emailCallbackId, mail.id, body, suite.ownerKey);
    expect(response.status).toBe(202);
    expect(await findDelivery(mail.deliveryIds[secondId]!)).toMatchObject({ status: "pending", attemptCount: 0 });
    expect(await findDelivery(mail.deliveryIds[firstId]!)).toMatchObject({ status: "success" });
    expect(dispatched).toEqual([mail.deliveryIds[secondId]]);
  });
});

describe("GET …/processings/{id} and …/attempts", () => {
  it("answers the mail's deliveries beside it, in the endpoints' creation order", async () => {
    const { emailCallbackId, firstId, secondId } = await seedAddressWithTwoEndpoints();
    const mail = await seedMail(emailCallbackId, {
      [firstId]: { status: "success", attemptCount: 2 },
      [secondId]: { status: "pending", attemptCount: 3, nextAttemptAt: new Date("2026-12-01T00:00:00Z") },
    });
    const response = await suite.app.call(detailRoute.GET, {
      path: `/api/email-callbacks/${emailCallbackId}/processings/${mail.id}`,
      headers: suite.ownerKey,
      params: { emailCallbackId, processingId: mail.id },
    });
    expect(response.status).toBe(200);
    expect(response.body?.emailProcessing.id).toBe(mail.id);
    expect(response.body?.deliveries).toEqual([
      { endpointId: firstId, status: "success", attemptCount: 2, nextAttemptAt: null, lastStatusCode: 200 },
      {
        endpointId: secondId,
        status: "pending",
        attemptCount: 3,
        nextAttemptAt: "2026-12-01T00:00:00.000Z",
        lastStatusCode: 500,
      },
    ]);
  });

  it("names each attempt's endpoint, and null for an attempt older than endpoints", async () => {
    const { emailCallbackId, firstId, secondId } = await seedAddressWithTwoEndpoints();
    const mail = await seedMail(emailCallbackId, { [firstId]: { status: "error" }, [secondId]: { status: "success" } });
    const attempt = (attemptedAt: string, deliveryId: string | null) =>
      prisma().deliveryAttempt.create({
        data: {
          id: createId("deliveryAttempt"),
          emailProcessingId: mail.id,
          deliveryId,
          attemptedAt: new Date(attemptedAt),
          durationMs: 5,
        },
      });
    await attempt("2026-11-20T10:00:00Z", null);
    await attempt("2026-11-20T10:01:00Z", mail.deliveryIds[firstId]!);
    await attempt("2026-11-20T10:02:00Z", mail.deliveryIds[secondId]!);
    const response = await suite.app.call(attemptsRoute.GET, {
      path: `/api/email-callbacks/${emailCallbackId}/processings/${mail.id}/attempts`,
      headers: suite.owner.headers,
      params: { emailCallbackId, processingId: mail.id },
    });
    expect(response.body?.deliveryAttempts.map((each: { endpointId: string | null }) => each.endpointId)).toEqual([
      secondId,
      firstId,
      null,
    ]);
  });
});
