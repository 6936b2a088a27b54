// Delivery to an address's endpoints (docs/webhooks.md: Endpoints) through the real worker on a fresh
// migrated database, to loopback sinks: one delivery per endpoint with its own attempts and retries,
// the raw format, Ed25519 signatures, the endpoint's own headers and its own timeout.

import { createHmac, createPublicKey, verify } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import type { Prisma } from "@/modules/db/generated/client";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { createId } from "@/modules/shared/ids";
import { createMemoryLogger, type MemoryLogger } from "@/tests/support/memory-logger";
import { seedDatabase, seedEmailCallback, seedUser } from "@/tests/support/seed";
import { createTestClock } from "@/tests/support/test-clock";
import { createTestDatabase } from "@/tests/support/test-database";
import { type SinkRequest, startWebhookSink, type WebhookSink } from "@/tests/support/webhook-sink";
import { createDeliveryWorker, type DeliveryWorkerOptions } from "./delivery-worker";
import { deriveSigningKeyEncryptionKey, encryptSigningKey, generateSigningKeyPair } from "./signing-keys";
import { verifyWebhookSignature } from "./webhook-signature";

const SECOND = 1000;
const SECRET = "whsec-endpoints-0123456789";
const OTHER_SECRET = "whsec-second-endpoint-9876543210";
const SIGNING_KEY_ENCRYPTION_KEY = deriveSigningKeyEncryptionKey("some auth secret for the endpoint delivery tests 0123456789");

let database: Database;
let sink: WebhookSink;
let otherSink: WebhookSink;
let userId: string;
let memory: MemoryLogger;

const time = createTestClock();

beforeAll(async () => {
  database = await createTestDatabase();
  sink = await startWebhookSink();
  otherSink = await startWebhookSink();
  userId = createId("user");
  await seedUser(database, { id: userId, name: "Alice", email: `alice-${userId}@example.com` });
});
afterAll(async () => {
  await sink?.close();
  await otherSink?.close();
  await database?.close();
});
beforeEach(async () => {
  await database.prisma.emailProcessing.deleteMany();
  sink.reset();
  otherSink.reset();
  time.set(new Date());
  memory = createMemoryLogger();
});

function newWorker(overrides: Partial<DeliveryWorkerOptions> = {}) {
  return createDeliveryWorker({
    metrics: createProcessMetrics(),
    database,
    config: { webhook: { timeoutMs: 5000, allowPrivateTargets: true } },
    logger: memory.logger,
    clock: time.now,
    random: () => 0.5,
    signingKeyEncryptionKey: SIGNING_KEY_ENCRYPTION_KEY,
    ...overrides,
  });
}

/** An address whose webhook (its first endpoint) is `sink`, changed by `firstEndpoint`; answers it and that endpoint. */
async function seedAddress(firstEndpoint: Prisma.EndpointUpdateInput = {}) {
  const { id } = await seedEmailCallback(database, { userId, webhookUrl: sink.url("/first"), webhookSecret: SECRET });
  const endpoint = await database.prisma.endpoint.findFirstOrThrow({ where: { emailCallbackId: id } });
  await database.prisma.endpoint.update({ where: { id: endpoint.id }, data: firstEndpoint });
  return { emailCallbackId: id, firstEndpointId: endpoint.id };
}

/**
 * A pending mail of the address, due now, with its delivery to the first endpoint (seedDatabase) and
 * one to each of `moreEndpointIds`, as acceptance writes them. Answers its id, bytes and delivery ids.
 */
async function seedMail(
  emailCallbackId: string,
  {
    rawMessage = Buffer.from("From: Bob <bob@example.org>\r\nSubject: Hello\r\n\r\nHi\r\n"),
    recipient = "alice@hookmail.test",
    moreEndpointIds = [] as string[],
  } = {},
) {
  const id = createId("emailProcessing");
  const payload = Buffer.from(`{"type":"email.received","data":{"id":"${id}","subject":"Grüße"}}`, "utf8");
  await seedDatabase(database, {
    processings: [
      {
        id,
        emailCallbackId,
        fromAddress: "bob@example.org",
        recipient,
        status: "pending",
        payload: new Uint8Array(payload),
        rawMessage: new Uint8Array(rawMessage),
        nextAttemptAt: time.now(),
      },
    ],
  });
  for (const endpointId of moreEndpointIds) {
    await database.prisma.delivery.create({
      data: { id: createId("delivery"), emailProcessingId: id, endpointId, status: "pending", nextAttemptAt: time.now() },
    });
  }
  const deliveries = await database.prisma.delivery.findMany({
    where: { emailProcessingId: id },
    select: { id: true, endpointId: true },
  });
  const deliveryTo = (endpointId: string) => deliveries.find((delivery) => delivery.endpointId === endpointId)!.id;
  return { id, payload, rawMessage, deliveryIds: deliveries.map((delivery) => delivery.id), deliveryTo };
}

const findProcessing = (id: string) => database.prisma.emailProcessing.findUniqueOrThrow({ where: { id } });
const findDelivery = (id: string) => database.prisma.delivery.findUniqueOrThrow({ where: { id } });
const findAttemptsOf = (deliveryId: string) =>
  database.prisma.deliveryAttempt.findMany({ where: { deliveryId }, orderBy: { attemptedAt: "asc" } });

async function deliverNow(worker: ReturnType<typeof newWorker>, ids: string[]) {
  worker.deliverSoon(ids);
  await worker.whenIdle();
}

async function deliverDueNow(worker: ReturnType<typeof newWorker>) {
  const claimed = await worker.deliverDue();
  await worker.whenIdle();
  return claimed;
}

const onlyRequest = (requests: SinkRequest[]) => {
  expect(requests).toHaveLength(1);
  return requests[0]!;
};

const verifyWithStandardWebhooks = (secret: string, request: SinkRequest) =>
  new Webhook(secret, { format: "raw" }).verify(request.body, request.headers as Record<string, string>, { jsonParse: false });

/** HMAC-SHA256 of `{id}.{timestamp}.` and the body's bytes, computed here from the request as received. */
function hmacOf(secret: string, request: SinkRequest): string {
  const signed = Buffer.concat([
    Buffer.from(`${request.headers["webhook-id"]}.${request.headers["webhook-timestamp"]}.`),
    request.body,
  ]);
  return `v1,${createHmac("sha256", Buffer.from(secret, "utf8")).update(signed).digest("base64")}`;
}

describe("an address with two endpoints", () => {
  it("gets one delivery per endpoint, each POSTed to its own URL with the mail's webhook-id, attempted and retried on its own", async () => {
    const { emailCallbackId, firstEndpointId } = await seedAddress();
    const secondEndpointId = createId("endpoint");
    await database.prisma.endpoint.create({
      data: { id: secondEndpointId, emailCallbackId, url: otherSink.url("/second"), signingScheme: "hmac", secret: OTHER_SECRET },
    });
    const mail = await seedMail(emailCallbackId, { moreEndpointIds: [secondEndpointId] });
    const [first, second] = [mail.deliveryTo(firstEndpointId), mail.deliveryTo(secondEndpointId)];
    expect(new Set(mail.deliveryIds)).toEqual(new Set([first, second]));
    otherSink.reply({ status: 503, body: "busy" });
    const worker = newWorker();
    await deliverNow(worker, mail.deliveryIds);

    const toFirst = onlyRequest(sink.requests);
    const toSecond = onlyRequest(otherSink.requests);
    expect([toFirst.path, toSecond.path]).toEqual(["/first", "/second"]);
    for (const request of [toFirst, toSecond]) {
      expect(request.headers["webhook-id"]).toBe(mail.id);
      expect(request.body.equals(mail.payload)).toBe(true);
    }
    // Each endpoint signs with its own secret.
    expect(() => verifyWithStandardWebhooks(SECRET, toFirst)).not.toThrow();
    expect(() => verifyWithStandardWebhooks(OTHER_SECRET, toSecond)).not.toThrow();
    expect(() => verifyWithStandardWebhooks(SECRET, toSecond)).toThrow();

    const retryAt = new Date(time.now().getTime() + 30 * SECOND);
    expect(await findDelivery(first)).toMatchObject({
      status: "success",
      attemptCount: 1,
      lastStatusCode: 200,
      lockedUntil: null,
    });
    expect(await findDelivery(second)).toMatchObject({
      status: "pending",
      attemptCount: 1,
      lastStatusCode: 503,
      nextAttemptAt: retryAt,
      lockedUntil: null,
    });
    expect(await findProcessing(mail.id)).toMatchObject({ status: "pending", attemptCount: 2, nextAttemptAt: retryAt });
    expect((await findAttemptsOf(first)).map(({ statusCode }) => statusCode)).toEqual([200]);
    expect((await findAttemptsOf(second)).map(({ statusCode }) => statusCode)).toEqual([503]);

    time.advance(31 * SECOND);
    expect(await deliverDueNow(worker)).toBe(1);

    expect(sink.requests).toHaveLength(1);
    expect(otherSink.requests).toHaveLength(2);
    const retried = otherSink.requests[1]!;
    expect(retried.headers["webhook-id"]).toBe(mail.id);
    expect(retried.body.equals(mail.payload)).toBe(true);
    expect(() => verifyWithStandardWebhooks(OTHER_SECRET, retried)).not.toThrow();
    expect(await findDelivery(first)).toMatchObject({ status: "success", attemptCount: 1 });
    expect(await findDelivery(second)).toMatchObject({
      status: "success",
      attemptCount: 2,
      lastStatusCode: 200,
      nextAttemptAt: null,
    });
    expect(await findProcessing(mail.id)).toMatchObject({ status: "success", error: null, attemptCount: 3, nextAttemptAt: null });
    expect((await findAttemptsOf(first)).map(({ statusCode }) => statusCode)).toEqual([200]);
    expect((await findAttemptsOf(second)).map(({ statusCode }) => statusCode)).toEqual([503, 200]);
  });
});

describe("a raw endpoint", () => {
  it("receives the message's bytes exactly as message/rfc822, with its recipient and processing id, signed over those bytes", async () => {
    const { emailCallbackId, firstEndpointId } = await seedAddress({ format: "raw" });
    const rawMessage = Buffer.from(
      "From: Bob <bob@example.org>\r\nTo: josé@hookmail.test\r\nSubject: Grüße — 👋\r\n\r\nline 1 \r\n\tline 2\r\n\r\n",
      "utf8",
    );
    const mail = await seedMail(emailCallbackId, { rawMessage, recipient: "josé 100%@hookmail.test" });
    await deliverNow(newWorker(), [mail.deliveryTo(firstEndpointId)]);

    const request = onlyRequest(sink.requests);
    expect(request.body.equals(rawMessage)).toBe(true);
    expect(request.headers).toMatchObject({
      "content-type": "message/rfc822",
      "webhook-id": mail.id,
      "x-hookmail-processing-id": mail.id,
      "x-hookmail-recipient": "jos%C3%A9%20100%25@hookmail.test",
    });
    expect(decodeURIComponent(String(request.headers["x-hookmail-recipient"]))).toBe("josé 100%@hookmail.test");
    expect(() => verifyWithStandardWebhooks(SECRET, request)).not.toThrow();
    expect(request.headers["webhook-signature"]).toBe(hmacOf(SECRET, request));
    expect((await findProcessing(mail.id)).status).toBe("success");
  });

  it("sends a message that is not UTF-8 byte for byte, and signs those bytes, not a decoding of them", async () => {
    const { emailCallbackId, firstEndpointId } = await seedAddress({ format: "raw" });
    const rawMessage = Buffer.concat([
      Buffer.from("Subject: caf\xe9\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n", "latin1"),
      Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0xff, 0xfe, 0x0d, 0x0a]),
    ]);
    const mail = await seedMail(emailCallbackId, { rawMessage });
    await deliverNow(newWorker(), [mail.deliveryTo(firstEndpointId)]);

    const request = onlyRequest(sink.requests);
    expect(request.body.equals(rawMessage)).toBe(true);
    expect(request.headers["webhook-signature"]).toBe(hmacOf(SECRET, request));
  });
});

describe("an Ed25519 endpoint", () => {
  async function seedEd25519Address() {
    const { publicKey, privateKey } = generateSigningKeyPair();
    const address = await seedAddress({
      signingScheme: "ed25519",
      secret: null,
      publicKey,
      privateKeyEncrypted: encryptSigningKey(privateKey, SIGNING_KEY_ENCRYPTION_KEY),
    });
    return { ...address, publicKey };
  }

  it("signs v1a, and the signature verifies against the endpoint's whpk_ public key", async () => {
    const { emailCallbackId, firstEndpointId, publicKey } = await seedEd25519Address();
    const mail = await seedMail(emailCallbackId);
    await deliverNow(newWorker(), [mail.deliveryTo(firstEndpointId)]);

    const request = onlyRequest(sink.requests);
    const signature = String(request.headers["webhook-signature"]);
    expect(signature).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
    const id = String(request.headers["webhook-id"]);
    const timestamp = String(request.headers["webhook-timestamp"]);
    expect(id).toBe(mail.id);
    expect(verifyWebhookSignature({ id, timestamp, body: request.body, signature, key: { scheme: "ed25519", publicKey } })).toBe(
      true,
    );
    // As a receiver would, with node:crypto alone (docs/webhooks.md: Ed25519 signatures).
    const raw = Buffer.from(publicKey.slice("whpk_".length), "base64");
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") }, format: "jwk" });
    const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), request.body]);
    expect(verify(null, signed, key, Buffer.from(signature.slice("v1a,".length), "base64"))).toBe(true);
    expect(verify(null, Buffer.concat([signed, Buffer.from(" ")]), key, Buffer.from(signature.slice(4), "base64"))).toBe(false);
    expect((await findProcessing(mail.id)).status).toBe("success");
  });

  it("signs a body of several MiB, read back in slices, as it signs a small one", async () => {
    const { emailCallbackId, firstEndpointId, publicKey } = await seedEd25519Address();
    const mail = await seedMail(emailCallbackId);
    const payload = Buffer.from(`{"type":"email.received","data":"${"x".repeat(3_000_000)}"}`);
    await database.prisma.emailProcessing.update({ where: { id: mail.id }, data: { payload: new Uint8Array(payload) } });
    await deliverNow(newWorker(), [mail.deliveryTo(firstEndpointId)]);

    const request = onlyRequest(sink.requests);
    expect(request.body.equals(payload)).toBe(true);
    const [id, timestamp, signature] = ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) =>
      String(request.headers[name]),
    );
    expect(
      verifyWebhookSignature({
        id: id!,
        timestamp: timestamp!,
        body: request.body,
        signature: signature!,
        key: { scheme: "ed25519", publicKey },
      }),
    ).toBe(true);
    expect((await findProcessing(mail.id)).status).toBe("success");
  });

  it("is sent nothing unsigned by a worker that cannot read its key: error / unknown, no request", async () => {
    const { emailCallbackId, firstEndpointId } = await seedEd25519Address();
    const mail = await seedMail(emailCallbackId);
    await deliverNow(newWorker({ signingKeyEncryptionKey: undefined }), [mail.deliveryTo(firstEndpointId)]);

    expect(sink.requests).toHaveLength(0);
    expect(await findDelivery(mail.deliveryTo(firstEndpointId))).toMatchObject({ status: "error", error: "unknown" });
  });
});

describe("an endpoint's own headers", () => {
  it("reach the receiver, and cannot replace webhook-id, Content-Type or any other header Hookmail sets", async () => {
    const { emailCallbackId, firstEndpointId } = await seedAddress({
      // Written straight to the row: the API refuses the reserved names, the delivery must not trust that alone.
      headers: {
        Authorization: "Bearer receiver-token",
        "X-Team": "billing",
        "webhook-id": "forged-id",
        "Webhook-Signature": "v1,forged",
        "CONTENT-TYPE": "text/plain",
        "User-Agent": "forged-agent",
        "X-Hookmail-Processing-Id": "forged-id",
      },
    });
    const mail = await seedMail(emailCallbackId);
    await deliverNow(newWorker(), [mail.deliveryTo(firstEndpointId)]);

    const request = onlyRequest(sink.requests);
    expect(request.headers).toMatchObject({
      authorization: "Bearer receiver-token",
      "x-team": "billing",
      "webhook-id": mail.id,
      "content-type": "application/json",
      "user-agent": "Hookmail-Webhook/1",
    });
    expect(request.headers).not.toHaveProperty("x-hookmail-processing-id");
    expect(request.headers["webhook-signature"]).toBe(hmacOf(SECRET, request));
    expect(() => verifyWithStandardWebhooks(SECRET, request)).not.toThrow();
  });
});

describe("an endpoint's own timeout", () => {
  it("ends an attempt the receiver answers after it as a timeout, though the worker's default timeout is longer", async () => {
    const { emailCallbackId, firstEndpointId } = await seedAddress({ timeoutMs: 300 });
    const mail = await seedMail(emailCallbackId);
    sink.reply({ status: 200, body: "too late", delayMs: 1500 });
    const deliveryId = mail.deliveryTo(firstEndpointId);
    await deliverNow(newWorker({ config: { webhook: { timeoutMs: 5000, allowPrivateTargets: true } } }), [deliveryId]);

    expect(sink.requests).toHaveLength(1);
    const [attempt] = await findAttemptsOf(deliveryId);
    expect(attempt).toMatchObject({ statusCode: null, responseBody: null, error: expect.stringMatching(/^timeout/) });
    expect(attempt?.durationMs).toBeGreaterThanOrEqual(290);
    expect(attempt?.durationMs).toBeLessThan(1500);
    expect(await findDelivery(deliveryId)).toMatchObject({
      status: "pending",
      attemptCount: 1,
      lastStatusCode: null,
      nextAttemptAt: new Date(time.now().getTime() + 30 * SECOND),
    });
  });
});
