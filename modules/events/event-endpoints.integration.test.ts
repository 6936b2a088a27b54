// The live events of an address with several endpoints (docs/webhooks.md: Live events), through the
// route handler on a fresh database with the real pipeline and delivery worker: an event a delivery
// caused names its endpoint, and `?include=webhook&endpoint=<id>` sends that endpoint's own requests
// (its body, its headers, its signature; a raw message in base64), for the mails it takes.
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as eventsRoute from "@/app/api/email-callbacks/[emailCallbackId]/events/route";
import { createDeliveryWorker, type DeliveryWorker } from "@/modules/delivery/delivery-worker";
import { verifyWebhookSignature } from "@/modules/delivery/webhook-signature";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { createId } from "@/modules/shared/ids";
import { silentLogger } from "@/modules/shared/logging/logger";
import { TEST_BASE_URL } from "@/tests/support/auth-client";
import { createEndpointCalls } from "@/tests/support/endpoint-calls";
import { readEventStream, type StreamMessage } from "@/tests/support/event-stream-reader";
import { testDispatcher } from "@/tests/support/recording-dispatcher";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";
import { seedEmailCallback } from "@/tests/support/seed";
import { startWebhookSink, type WebhookSink } from "@/tests/support/webhook-sink";

const SECRET = "events-endpoints-secret-0123456789";

let app: RouteTestApp;
let owner: TestUser;
let ownerKey: Record<string, string>;
let sink: WebhookSink;
let worker: DeliveryWorker;
const calls = createEndpointCalls(() => app);
const openStreams: AbortController[] = [];

beforeAll(async () => {
  app = await startRouteTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "5000" });
  ({ owner, ownerKey } = await app.signUpOwnerAndStranger("event-endpoints"));
  sink = await startWebhookSink();
  worker = createDeliveryWorker({
    metrics: createProcessMetrics(),
    database: app.database,
    config: app.config,
    logger: silentLogger,
    signingKeyEncryptionKey: app.services.signingKeyEncryptionKey(),
  });
  testDispatcher.use(worker);
});
afterEach(() => {
  for (const controller of openStreams.splice(0)) controller.abort();
});
afterAll(async () => {
  testDispatcher.use(undefined);
  await worker?.stop();
  await sink?.close();
  await app?.close();
});

/** An address whose first endpoint is the sink's `/<username>`, with a second endpoint as `second` says. */
async function seedTwoEndpoints(second: Record<string, unknown>) {
  const username = `ee-${createId("emailCallback").slice(3, 13).toLowerCase()}`;
  const { id } = await seedEmailCallback(app.database, {
    userId: owner.userId,
    username,
    webhookUrl: sink.url(`/${username}`),
    webhookSecret: SECRET,
  });
  const added = await calls.addEndpoint(id, { url: sink.url(`/${username}/second`), ...second }, ownerKey);
  expect(added.status).toBe(201);
  const listed = await calls.listEndpoints(id, ownerKey);
  const [first] = (listed.body?.endpoints ?? []) as { id: string }[];
  return {
    id,
    address: `${username}@hookmail.test`,
    firstPath: `/${username}`,
    secondPath: `/${username}/second`,
    first: first!.id,
    second: added.body?.endpoint as { id: string; signing: { scheme: string; publicKey?: string; secret?: string } },
  };
}

async function openStream(emailCallbackId: string, query = "") {
  const controller = new AbortController();
  openStreams.push(controller);
  const request = new Request(`${TEST_BASE_URL}/api/email-callbacks/${emailCallbackId}/events${query}`, {
    headers: ownerKey,
    signal: controller.signal,
  });
  const response = await eventsRoute.GET(request, { params: Promise.resolve({ emailCallbackId }) });
  return { response, reader: response.status === 200 && response.body ? readEventStream(response.body) : undefined };
}

/** A message whose text is Latin-1 in 8 bits: bytes that are not UTF-8. */
function composeLatin1Message(to: string, subject: string) {
  return Buffer.concat([
    Buffer.from(
      [
        "From: Alice <alice@example.org>",
        `To: ${to}`,
        `Subject: ${subject}`,
        `Message-ID: <${createId("emailProcessing")}@example.org>`,
        "Content-Type: text/plain; charset=iso-8859-1",
        "Content-Transfer-Encoding: 8bit",
        "",
        "",
      ].join("\r\n"),
    ),
    Buffer.from("Caf\xe9 cr\xe8me, d\xe9j\xe0 vu.\r\n", "latin1"),
  ]);
}

async function send(to: string, subject: string) {
  const raw = composeLatin1Message(to, subject);
  await (await app.services.inbound()).receive({ raw, envelope: { from: "alice@example.org", to: [to] } });
  return raw;
}

const parse = (message: StreamMessage) => JSON.parse(message.data) as Record<string, any>;
const isProcessing = (message: StreamMessage) => message.event === "processing";
const isEmailReceived = (message: StreamMessage) => message.event === "email.received";

describe("processing events of an address with two endpoints", () => {
  it("name no endpoint for the arrival, and each delivery's end produces an event naming its endpoint", async () => {
    const { id, address, first, second } = await seedTwoEndpoints({});
    const { reader } = await openStream(id);
    await send(address, "Two deliveries");
    const arrival = parse(await reader!.next(isProcessing));
    expect(arrival).toMatchObject({ status: "pending", endpointId: null, attemptCount: 0 });
    const ends = [parse(await reader!.next(isProcessing)), parse(await reader!.next(isProcessing))];
    expect(ends.map((event) => event.id)).toEqual([arrival.id, arrival.id]);
    expect(ends.map((event) => event.endpointId).sort()).toEqual([first, second.id].sort());
    expect(ends.at(-1)).toMatchObject({ status: "success", attemptCount: 2, webhookResponseStatusCode: 200 });
  });
});

describe("GET /api/email-callbacks/{id}/events?include=webhook&endpoint=<id>", () => {
  it("sends a raw Ed25519 endpoint's request: the exact message bytes in base64, its headers, a v1a signature that verifies", async () => {
    const { id, address, secondPath, second } = await seedTwoEndpoints({
      format: "raw",
      signing: { scheme: "ed25519" },
      headers: { "X-Team": "mail" },
    });
    const { reader } = await openStream(id, `?include=webhook&endpoint=${second.id}`);
    sink.reset();
    const raw = await send(address, "Raw by its endpoint");
    const event = parse(await reader!.next(isEmailReceived)) as {
      headers: Record<string, string>;
      body: string;
      bodyEncoding?: string;
    };
    expect(event.bodyEncoding).toBe("base64");
    const bytes = Buffer.from(event.body, "base64");
    expect(bytes.equals(raw)).toBe(true);
    expect(event.headers).toMatchObject({
      "Content-Type": "message/rfc822",
      "X-Hookmail-Recipient": address,
      "X-Hookmail-Processing-Id": event.headers["webhook-id"],
      "X-Team": "mail",
    });
    expect(event.headers["webhook-signature"]).toMatch(/^v1a,/);
    const verified = verifyWebhookSignature({
      id: event.headers["webhook-id"]!,
      timestamp: event.headers["webhook-timestamp"]!,
      body: bytes,
      signature: event.headers["webhook-signature"]!,
      key: { scheme: "ed25519", publicKey: second.signing.publicKey! },
    });
    expect(verified).toBe(true);
    await sink.waitForRequests(2);
    const delivered = sink.requests.find((request) => request.path === secondPath)!;
    expect(delivered.body.equals(bytes)).toBe(true);
  });

  it("sends a JSON endpoint's request signed with that endpoint's own secret, not the address's", async () => {
    const ownSecret = "second-endpoint-secret-0123456789";
    const { id, address, secondPath, second } = await seedTwoEndpoints({ signing: { scheme: "hmac", secret: ownSecret } });
    const { reader } = await openStream(id, `?include=webhook&endpoint=${second.id}`);
    sink.reset();
    await send(address, "Signed for the second");
    const event = parse(await reader!.next(isEmailReceived)) as { headers: Record<string, string>; body: string };
    expect(event).not.toHaveProperty("bodyEncoding");
    expect(event.headers["Content-Type"]).toBe("application/json");
    expect(new Webhook(ownSecret, { format: "raw" }).verify(event.body, event.headers)).toMatchObject({
      data: { subject: "Signed for the second" },
    });
    expect(() => new Webhook(SECRET, { format: "raw" }).verify(event.body, event.headers)).toThrow();
    await sink.waitForRequests(2);
    expect(sink.requests.find((request) => request.path === secondPath)!.body.toString("utf8")).toBe(event.body);
  });

  it("sends only the mails the endpoint takes: none that its filter refuses", async () => {
    const { id, address, second } = await seedTwoEndpoints({
      filter: { match: "all", conditions: [{ field: "subject", op: "contains", value: "invoice" }] },
    });
    const { reader } = await openStream(id, `?include=webhook&endpoint=${second.id}`);
    await send(address, "Just saying hello");
    const refused = parse(await reader!.next(isProcessing));
    await send(address, "Invoice 42");
    const taken = parse(await reader!.next(isEmailReceived));
    expect(JSON.parse(taken.body).data.subject).toBe("Invoice 42");
    expect(taken.headers["webhook-id"]).not.toBe(refused.id);
  });

  it("answers 404 endpoint.not_found for an endpoint of another address, or an unknown one", async () => {
    const one = await seedTwoEndpoints({});
    const other = await seedTwoEndpoints({});
    for (const endpointId of [other.second.id, "ept_unknown"]) {
      const { response } = await openStream(one.id, `?include=webhook&endpoint=${endpointId}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "endpoint.not_found" } });
    }
  });
});
