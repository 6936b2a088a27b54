// One inbox row in full over the API: the row with its delivery state and the exact webhook body (or
// shortened, for the message page), the body as a download, the message as received, and an
// attachment, for its owner (session or API key) and no one else.
import { createTransport } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as attachmentRoute from "@/app/api/email-callbacks/[emailCallbackId]/processings/[processingId]/attachments/[index]/route";
import * as rawRoute from "@/app/api/email-callbacks/[emailCallbackId]/processings/[processingId]/raw/route";
import * as detailRoute from "@/app/api/email-callbacks/[emailCallbackId]/processings/[processingId]/route";
import * as webhookBodyRoute from "@/app/api/email-callbacks/[emailCallbackId]/processings/[processingId]/webhook-body/route";
import { TEST_BASE_URL } from "@/tests/support/auth-client";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";
import { seedDatabase } from "@/tests/support/seed";

let app: RouteTestApp;
let owner: TestUser;
let stranger: TestUser;
let emailCallbackId: string;
let raw: Buffer;
const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(2048, 9), Buffer.from([0, 255, 13, 10])]);
const BODY = '{"type":"email.received","data":{"id":"ep_x","subject":"Réunion ✓"}}';
const ids = {
  delivered: "ep_ContentDelivered000001",
  gone: "ep_ContentGone00000000001",
  pending: "ep_ContentPending000000001",
  large: "ep_ContentLarge0000000001",
};
/** A body of over 1 MiB, as the serializer writes it: two attachments' base64 and a text around them. */
const LARGE_ATTACHMENTS = [Buffer.alloc(900_000, 1), Buffer.alloc(300_000, 2)];
const largeBody = (contents: (string | null)[]) =>
  JSON.stringify({
    type: "email.received",
    data: {
      subject: "Big",
      text: 'Quoted: "content":"AAAA"',
      attachments: contents.map((content, index) => ({ filename: `part${index}.bin`, size: 1, content, sha256: "x" })),
    },
  });
const LARGE_BODY = largeBody(LARGE_ATTACHMENTS.map((bytes) => bytes.toString("base64")));

beforeAll(async () => {
  app = await startRouteTestApp();
  owner = await app.signUp("owner");
  stranger = await app.signUp("stranger");
  const info = await createTransport({ streamTransport: true, buffer: true }).sendMail({
    from: "bob@example.org",
    to: "inbox@hookmail.test",
    subject: "Report",
    text: "Attached.",
    attachments: [{ filename: "rapport été.pdf", content: PDF, contentType: "application/pdf" }],
  });
  raw = info.message as Buffer;
  const { emailCallbacks } = await seedDatabase(app.database, { emailCallbacks: [{ userId: owner.userId }] });
  emailCallbackId = emailCallbacks[0]!.id;
  const nextAttemptAt = new Date("2026-11-26T10:00:00Z");
  await seedDatabase(app.database, {
    processings: [
      {
        id: ids.delivered,
        emailCallbackId,
        rawMessage: new Uint8Array(raw),
        payload: new Uint8Array(Buffer.from(BODY)),
        attemptCount: 1,
      },
      { id: ids.gone, emailCallbackId, rawMessage: null, payload: null },
      { id: ids.large, emailCallbackId, rawMessage: new Uint8Array(raw), payload: new Uint8Array(Buffer.from(LARGE_BODY)) },
      {
        id: ids.pending,
        emailCallbackId,
        status: "pending",
        rawMessage: new Uint8Array(raw),
        payload: new Uint8Array(Buffer.from(BODY)),
        attemptCount: 2,
        nextAttemptAt,
      },
    ],
  });
});
afterAll(async () => {
  await app.close();
});

const params = (processingId: string, extra: Record<string, string> = {}) => ({ emailCallbackId, processingId, ...extra });
const path = (processingId: string, rest = "") => `/api/email-callbacks/${emailCallbackId}/processings/${processingId}${rest}`;

async function download(
  handler: (request: Request, context: { params: Promise<never> }) => Promise<Response>,
  processingId: string,
  headers: Record<string, string>,
  extra = {},
) {
  const response = await handler(new Request(`${TEST_BASE_URL}${path(processingId)}`, { headers }), {
    params: Promise.resolve(params(processingId, extra) as never),
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("GET …/processings/{id}", () => {
  it("answers the row with its attempt count and next attempt, and the webhook body as sent, byte for byte", async () => {
    const pending = await app.call(detailRoute.GET, {
      path: path(ids.pending),
      headers: owner.headers,
      params: params(ids.pending),
    });
    expect(pending.status).toBe(200);
    expect(pending.body?.emailProcessing).toMatchObject({
      id: ids.pending,
      status: "pending",
      attemptCount: 2,
      nextAttemptAt: "2026-11-26T10:00:00.000Z",
    });
    expect(pending.body?.webhookBody).toBe(BODY);
  });

  it("answers webhookBody null once the content is gone", async () => {
    const gone = await app.call(detailRoute.GET, { path: path(ids.gone), headers: owner.headers, params: params(ids.gone) });
    expect(gone.status).toBe(200);
    expect(gone.body?.webhookBody).toBeNull();
  });

  it("is not found for another user, an unknown row, or a row of another address; an API key of the owner reads it", async () => {
    const call = (headers: Record<string, string>, processingId = ids.delivered) =>
      app.call(detailRoute.GET, { path: path(processingId), headers, params: params(processingId) });
    expect((await call(stranger.headers)).status).toBe(404);
    expect((await call(owner.headers, "ep_NoSuchProcessing0000001")).status).toBe(404);
    const key = await app.createApiKey(owner, "reader");
    expect((await call(key.headers)).status).toBe(200);
  });
});

describe("GET …/processings/{id}?webhookBody=shortened and …/webhook-body (docs/webhooks.md: Reading a mail afterwards)", () => {
  const read = (processingId: string, query = "") =>
    app.call(detailRoute.GET, { path: `${path(processingId)}${query}`, headers: owner.headers, params: params(processingId) });

  it("leaves out the attachments' content of a body over 1 MiB, and says so with the body's size", async () => {
    const shortened = await read(ids.large, "?webhookBody=shortened");
    expect(shortened.status).toBe(200);
    expect(shortened.body?.isWebhookBodyShortened).toBe(true);
    expect(shortened.body?.webhookBodyBytes).toBe(Buffer.byteLength(LARGE_BODY));
    expect(shortened.body?.webhookBody).toBe(largeBody([null, null]));
  });

  it("answers the body as sent by default, and for a small body even when asked to shorten", async () => {
    const exact = await read(ids.large);
    expect(exact.body?.webhookBody).toBe(LARGE_BODY);
    expect(exact.body?.isWebhookBodyShortened).toBe(false);
    const small = await read(ids.delivered, "?webhookBody=shortened");
    expect(small.body).toMatchObject({
      webhookBody: BODY,
      webhookBodyBytes: Buffer.byteLength(BODY),
      isWebhookBodyShortened: false,
    });
    const gone = await read(ids.gone, "?webhookBody=shortened");
    expect(gone.body).toMatchObject({ webhookBody: null, webhookBodyBytes: null, isWebhookBodyShortened: false });
  });

  it("refuses a webhookBody form it does not know with 400", async () => {
    const refused = await read(ids.large, "?webhookBody=everything");
    expect(refused.status).toBe(400);
  });

  it("serves the exact body as a .json download to its owner, 409 once gone, 404 to anyone else", async () => {
    const body = await download(webhookBodyRoute.GET, ids.large, owner.headers);
    expect(body.status).toBe(200);
    expect(body.headers.get("content-type")).toBe("application/json");
    expect(body.headers.get("content-disposition")).toContain(`${ids.large}.json`);
    expect(body.bytes.toString("utf8")).toBe(LARGE_BODY);
    expect((await download(webhookBodyRoute.GET, ids.gone, owner.headers)).status).toBe(409);
    expect((await download(webhookBodyRoute.GET, ids.large, stranger.headers)).status).toBe(404);
  });
});

describe("GET …/processings/{id}/raw and …/attachments/{index}", () => {
  it("serve the message as received and the attachment's exact bytes as downloads", async () => {
    const message = await download(rawRoute.GET, ids.delivered, owner.headers);
    expect(message.status).toBe(200);
    expect(message.headers.get("content-type")).toBe("message/rfc822");
    expect(message.bytes.equals(raw)).toBe(true);

    const attachment = await download(attachmentRoute.GET, ids.delivered, owner.headers, { index: "0" });
    expect(attachment.status).toBe(200);
    expect(attachment.headers.get("content-type")).toBe("application/pdf");
    expect(attachment.headers.get("content-disposition")).toContain("filename*=UTF-8''rapport%20%C3%A9t%C3%A9.pdf");
    expect(attachment.bytes.equals(PDF)).toBe(true);
  });

  it("answer 409 email_processing.message_gone once the content is gone, and 404 for an attachment that is not there or another user", async () => {
    const gone = await download(rawRoute.GET, ids.gone, owner.headers);
    expect(gone.status).toBe(409);
    expect(JSON.parse(gone.bytes.toString()).error.code).toBe("email_processing.message_gone");
    expect((await download(attachmentRoute.GET, ids.delivered, owner.headers, { index: "1" })).status).toBe(404);
    expect((await download(attachmentRoute.GET, ids.delivered, owner.headers, { index: "01" })).status).toBe(404);
    expect((await download(rawRoute.GET, ids.delivered, stranger.headers)).status).toBe(404);
  });
});
