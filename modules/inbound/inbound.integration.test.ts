// The inbound pipeline on a fresh, migrated database: routing of envelope recipients to callbacks,
// the statuses and reasons of the inbox rows, the queued webhook body, and deduplication.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import { AppError } from "@/modules/shared/errors/app-error";
import { createId } from "@/modules/shared/ids";
import { seedEmailCallback, seedUser } from "@/tests/support/seed";
import { createTestDatabase } from "@/tests/support/test-database";
import { createInboundRepository, type InboundRepository, type NewProcessing } from "./inbound.repository";
import { acceptMessage, checkRecipient } from "./inbound.usecases";
import { createParsePool } from "./parse-pool";
import type { WebhookPayload } from "./parsing/webhook-payload";

const rules = { emailDomains: ["hookmail.test", "mail.hookmail.test"] };
const HOUR_MS = 60 * 60 * 1000;

const parser = createParsePool();
let database: Database;
let repository: InboundRepository;
let userId: string;
let counter = 0;

const uniqueName = (label: string) => {
  counter += 1;
  return `${label}${counter}`;
};

async function createCallback({
  username = uniqueName("user"),
  domain = "hookmail.test",
  isEnabled = true,
  allowedOrigins = [] as string[],
  deletedAt = null as Date | null,
} = {}) {
  return seedEmailCallback(database, { userId, domain, username, isEnabled, allowedOrigins, deletedAt });
}

function buildMessage({
  messageId = `<${uniqueName("message")}@example.org>` as string | null,
  from = "Bob <bob@example.org>",
  to = "someone@hookmail.test",
  subject = "Hello",
  body = "Hi there.",
} = {}): Buffer {
  return Buffer.from(
    [
      `From: ${from}`,
      `To: ${to}`,
      `Subject: ${subject}`,
      "Date: Sat, 21 Nov 2026 09:59:58 +0000",
      ...(messageId ? [`Message-ID: ${messageId}`] : []),
      "Content-Type: text/plain; charset=utf-8",
      "",
      body,
      "",
    ].join("\r\n"),
  );
}

type AcceptOptions = Omit<Parameters<typeof acceptMessage>[0], "raw" | "envelope" | "repository" | "rules" | "parser"> & {
  raw?: Buffer;
};

/** acceptMessage of `raw` (buildMessage() unless given) from bob@example.org to `to`, with this file's repository and rules. */
const acceptFromBob = (to: string[], { raw = buildMessage(), ...options }: AcceptOptions = {}) =>
  acceptMessage({ parser, raw, envelope: { from: "bob@example.org", to }, repository, rules, ...options });

const processingsOf = (emailCallbackId: string) =>
  database.prisma.emailProcessing.findMany({ where: { emailCallbackId }, orderBy: { createdAt: "asc" } });

const deliveriesOf = (emailProcessingId: string) =>
  database.prisma.delivery.findMany({ where: { emailProcessingId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

const readPayload = (payload: Uint8Array | null): WebhookPayload => JSON.parse(Buffer.from(payload ?? []).toString("utf8"));

beforeAll(async () => {
  database = await createTestDatabase();
  repository = createInboundRepository(database);
  userId = createId("user");
  await seedUser(database, { id: userId });
});
afterAll(async () => {
  await parser.close();
  await database?.close();
});

describe("acceptMessage routing", () => {
  it("creates nothing for an address no callback holds, and still answers", async () => {
    const result = await acceptFromBob(["nobody-here@hookmail.test"]);
    expect(result).toEqual({ accepted: 0, processingIds: [], pendingIds: [], deliveryIds: [], claims: [] });
  });

  it("creates nothing for a recipient on a domain that is not offered, even when a callback holds that address", async () => {
    const callback = await createCallback({ domain: "retired.test" });
    const result = await acceptFromBob([`${callback.username}@retired.test`, `${callback.username}@elsewhere.com`]);
    expect(result.accepted).toBe(0);
    expect(await processingsOf(callback.id)).toHaveLength(0);
  });

  it("creates nothing for a deleted callback's address", async () => {
    const callback = await createCallback({ deletedAt: new Date(), isEnabled: false });
    const result = await acceptFromBob([`${callback.username}@hookmail.test`]);
    expect(result.accepted).toBe(0);
    expect(await processingsOf(callback.id)).toHaveLength(0);
  });

  it("routes to the live callback that took over a deleted callback's address", async () => {
    const deleted = await createCallback({ deletedAt: new Date(), isEnabled: false });
    const live = await createCallback({ username: deleted.username });
    const result = await acceptFromBob([`${deleted.username}@hookmail.test`]);
    expect(result.accepted).toBe(1);
    expect(await processingsOf(deleted.id)).toHaveLength(0);
    expect(await processingsOf(live.id)).toHaveLength(1);
  });

  it("queues an enabled callback's mail as pending, with the webhook body built for its processing and the raw message kept", async () => {
    const callback = await createCallback();
    const raw = buildMessage({ messageId: "<queued-1@example.org>", subject: "Invoice 42" });
    const now = new Date("2026-11-21T10:00:00.000Z");
    const result = await acceptMessage({
      parser,
      raw,
      envelope: { from: "<Bob@Example.org>", to: [`${callback.username}@hookmail.test`] },
      repository,
      rules,
      now,
    });
    expect(result.accepted).toBe(1);
    expect(result.pendingIds).toEqual(result.processingIds);
    const [processing] = await processingsOf(callback.id);
    expect(processing).toMatchObject({
      id: result.processingIds[0],
      status: "pending",
      error: null,
      fromAddress: "bob@example.org",
      subject: "Invoice 42",
      messageId: "<queued-1@example.org>",
      recipient: `${callback.username}@hookmail.test`,
      tag: null,
      attemptCount: 0,
      nextAttemptAt: now,
      deliveredAt: null,
    });
    expect(await deliveriesOf(processing!.id)).toMatchObject([
      { id: result.deliveryIds[0], status: "pending", attemptCount: 0, nextAttemptAt: now, lockedUntil: null },
    ]);
    expect(processing?.id).toMatch(/^ep_[0-9A-Za-z]{22}$/);
    expect(Buffer.from(processing?.rawMessage ?? []).equals(raw)).toBe(true);
    const payload = readPayload(processing?.payload ?? null);
    expect(payload).toMatchObject({
      type: "email.received",
      timestamp: "2026-11-21T10:00:00.000Z",
      data: {
        id: processing?.id,
        emailCallbackId: callback.id,
        address: `${callback.username}@hookmail.test`,
        tag: null,
        envelope: { from: "bob@example.org", to: [`${callback.username}@hookmail.test`] },
        from: { address: "bob@example.org", name: "Bob" },
        subject: "Invoice 42",
        messageId: "<queued-1@example.org>",
        text: "Hi there.\n",
      },
    });
  });

  it("with claimLeaseMs, writes the pending row's delivery already claimed for that long and hands back its claim with the stored body and the endpoint's webhook", async () => {
    const callback = await createCallback();
    const now = new Date("2026-11-21T10:00:00.000Z");
    const result = await acceptFromBob([`${callback.username}@hookmail.test`], { now, claimLeaseMs: 75_000 });
    const [processing] = await processingsOf(callback.id);
    const lockedUntil = new Date("2026-11-21T10:01:15.000Z");
    expect(processing).toMatchObject({ status: "pending" });
    const [delivery] = await deliveriesOf(processing!.id);
    expect(delivery).toMatchObject({ id: result.deliveryIds[0], status: "pending", lockedUntil });
    expect(result.claims).toEqual([
      {
        id: delivery?.id,
        lockedUntil,
        target: {
          id: delivery?.id,
          processingId: processing?.id,
          recipient: `${callback.username}@hookmail.test`,
          endpointId: delivery?.endpointId,
          status: "pending",
          attemptCount: 0,
          body: expect.anything(),
          url: "https://hooks.example.com/incoming",
          format: "json",
          signingScheme: "none",
          secret: null,
          publicKey: null,
          privateKeyEncrypted: null,
          headers: {},
          timeoutMs: null,
          isEnabled: true,
          isDeleted: false,
        },
      },
    ]);
    expect(
      Buffer.from((result.claims[0]?.target?.body as Uint8Array | undefined) ?? []).equals(
        Buffer.from(processing?.payload ?? []),
      ),
    ).toBe(true);
  });

  it("hands back no claim for mail that is not to be delivered", async () => {
    const callback = await createCallback({ isEnabled: false });
    const result = await acceptFromBob([`${callback.username}@hookmail.test`], { claimLeaseMs: 75_000 });
    expect(result).toMatchObject({ accepted: 1, pendingIds: [], deliveryIds: [], claims: [] });
    const [processing] = await processingsOf(callback.id);
    expect(await deliveriesOf(processing!.id)).toEqual([]);
  });

  it("records a disabled callback's mail as not-processed / not-enabled, with no body but its raw message kept to look at", async () => {
    const callback = await createCallback({ isEnabled: false });
    const raw = buildMessage({ subject: "Ignored" });
    const result = await acceptFromBob([`${callback.username}@hookmail.test`], { raw });
    expect(result).toMatchObject({ accepted: 1, pendingIds: [] });
    const [processing] = await processingsOf(callback.id);
    expect(processing).toMatchObject({
      status: "not-processed",
      error: "not-enabled",
      subject: "Ignored",
      payload: null,
      nextAttemptAt: null,
    });
    expect(Buffer.from(processing!.rawMessage!).equals(Buffer.from(raw))).toBe(true);
  });

  it("checks a disabled callback before its allowed senders", async () => {
    const callback = await createCallback({ isEnabled: false, allowedOrigins: ["carol@example.org"] });
    await acceptFromBob([`${callback.username}@hookmail.test`]);
    expect((await processingsOf(callback.id))[0]).toMatchObject({ status: "not-processed", error: "not-enabled" });
  });

  it("queues mail from an exactly allowed sender, compared case-insensitively, and refuses any other", async () => {
    const callback = await createCallback({ allowedOrigins: ["bob@example.org"] });
    const to = [`${callback.username}@hookmail.test`];
    const allowed = await acceptMessage({
      parser,
      raw: buildMessage(),
      envelope: { from: "BOB@Example.ORG", to },
      repository,
      rules,
    });
    const refused = await acceptMessage({
      parser,
      raw: buildMessage(),
      envelope: { from: "eve@example.org", to },
      repository,
      rules,
    });
    const rows = await processingsOf(callback.id);
    expect(rows.find((row) => row.id === allowed.processingIds[0])).toMatchObject({ status: "pending", error: null });
    expect(rows.find((row) => row.id === refused.processingIds[0])).toMatchObject({
      status: "not-processed",
      error: "from-address-not-allowed",
      payload: null,
    });
    expect(rows.find((row) => row.id === refused.processingIds[0])!.rawMessage).not.toBeNull();
    expect(refused.pendingIds).toEqual([]);
  });

  it("queues mail from any sender of an allowed @domain, and refuses its subdomains and other domains", async () => {
    const callback = await createCallback({ allowedOrigins: ["@example.org"] });
    const to = [`${callback.username}@hookmail.test`];
    const send = (from: string) => acceptMessage({ parser, raw: buildMessage(), envelope: { from, to }, repository, rules });
    const [domain, subdomain, other] = [
      await send("anyone@example.org"),
      await send("x@sub.example.org"),
      await send("x@example.com"),
    ];
    const statusOf = async (id: string | undefined) =>
      (await database.prisma.emailProcessing.findUniqueOrThrow({ where: { id: id ?? "" } })).error ?? "pending";
    expect(await statusOf(domain.processingIds[0])).toBe("pending");
    expect(await statusOf(subdomain.processingIds[0])).toBe("from-address-not-allowed");
    expect(await statusOf(other.processingIds[0])).toBe("from-address-not-allowed");
  });

  it("refuses the null sender of a bounce when senders are restricted, and queues it when they are not", async () => {
    const restricted = await createCallback({ allowedOrigins: ["@example.org"] });
    const open = await createCallback();
    await acceptMessage({
      parser,
      raw: buildMessage({ from: "MAILER-DAEMON@example.org" }),
      envelope: { from: "<>", to: [`${restricted.username}@hookmail.test`, `${open.username}@hookmail.test`] },
      repository,
      rules,
    });
    expect((await processingsOf(restricted.id))[0]).toMatchObject({ status: "not-processed", error: "from-address-not-allowed" });
    const [queued] = await processingsOf(open.id);
    expect(queued).toMatchObject({ status: "pending", fromAddress: "MAILER-DAEMON@example.org" });
    expect(readPayload(queued?.payload ?? null).data.envelope.from).toBeNull();
  });

  it("routes user+tag to the user, case-insensitively, and passes the tag on in the row and the body", async () => {
    const callback = await createCallback();
    const result = await acceptFromBob([`${callback.username.toUpperCase()}+Orders@HookMail.test`]);
    expect(result.accepted).toBe(1);
    const [processing] = await processingsOf(callback.id);
    expect(processing).toMatchObject({ tag: "orders", recipient: `${callback.username}+orders@hookmail.test` });
    expect(readPayload(processing?.payload ?? null).data).toMatchObject({
      address: `${callback.username}@hookmail.test`,
      tag: "orders",
      envelope: { to: [`${callback.username}+orders@hookmail.test`] },
    });
  });

  it("creates one processing per callback for a message to two addresses, each body with its own id and only its own recipients", async () => {
    const alice = await createCallback();
    const carol = await createCallback({ domain: "mail.hookmail.test" });
    const result = await acceptFromBob([`${alice.username}@hookmail.test`, `${carol.username}@mail.hookmail.test`]);
    expect(result.accepted).toBe(2);
    expect(new Set(result.processingIds).size).toBe(2);
    expect(result.pendingIds).toEqual(result.processingIds);
    const [aliceRow] = await processingsOf(alice.id);
    const [carolRow] = await processingsOf(carol.id);
    expect(aliceRow?.id).not.toBe(carolRow?.id);
    expect(readPayload(aliceRow?.payload ?? null).data).toMatchObject({
      id: aliceRow?.id,
      emailCallbackId: alice.id,
      envelope: { to: [`${alice.username}@hookmail.test`] },
    });
    expect(readPayload(carolRow?.payload ?? null).data).toMatchObject({
      id: carolRow?.id,
      emailCallbackId: carol.id,
      envelope: { to: [`${carol.username}@mail.hookmail.test`] },
    });
  });

  it("creates one processing when several envelope addresses of a message reach the same callback", async () => {
    const callback = await createCallback();
    const result = await acceptFromBob([
      `${callback.username}@hookmail.test`,
      `<${callback.username.toUpperCase()}@hookmail.test>`,
      `${callback.username}+news@hookmail.test`,
    ]);
    expect(result.accepted).toBe(1);
    const [processing] = await processingsOf(callback.id);
    expect(processing).toMatchObject({ recipient: `${callback.username}@hookmail.test`, tag: null });
    expect(readPayload(processing?.payload ?? null).data.envelope.to).toEqual([
      `${callback.username}@hookmail.test`,
      `${callback.username}+news@hookmail.test`,
    ]);
  });

  it("refuses a message mailparser cannot read with inbound.invalid_message, writing nothing", async () => {
    const callback = await createCallback();
    const raw = Buffer.from(`Subject: ${"a".repeat(2 * 1024 * 1024)}\r\n\r\nbody\r\n`);
    const error = await acceptFromBob([`${callback.username}@hookmail.test`], { raw }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "inbound.invalid_message", httpStatus: 400 });
    expect(await processingsOf(callback.id)).toHaveLength(0);
  });
});

describe("acceptMessage deduplication", () => {
  it("creates nothing for the same Message-ID and recipient again within 24 h, and a new processing after", async () => {
    const callback = await createCallback();
    const raw = buildMessage({ messageId: "<retried@example.org>" });
    const envelope = { from: "bob@example.org", to: [`${callback.username}@hookmail.test`] };
    const first = new Date("2026-11-21T10:00:00.000Z");
    expect((await acceptMessage({ parser, raw, envelope, repository, rules, now: first })).accepted).toBe(1);
    const again = await acceptMessage({
      parser,
      raw,
      envelope,
      repository,
      rules,
      now: new Date(first.getTime() + 23 * HOUR_MS),
    });
    expect(again).toEqual({ accepted: 0, processingIds: [], pendingIds: [], deliveryIds: [], claims: [] });
    expect(await processingsOf(callback.id)).toHaveLength(1);
    const later = await acceptMessage({
      parser,
      raw,
      envelope,
      repository,
      rules,
      now: new Date(first.getTime() + 25 * HOUR_MS),
    });
    expect(later.accepted).toBe(1);
    expect(await processingsOf(callback.id)).toHaveLength(2);
  });

  it("treats the same Message-ID to another recipient, or to another callback, as a new message", async () => {
    const alice = await createCallback();
    const carol = await createCallback();
    const raw = buildMessage({ messageId: "<shared@example.org>" });
    const send = (to: string) =>
      acceptMessage({ parser, raw, envelope: { from: "bob@example.org", to: [to] }, repository, rules });
    expect((await send(`${alice.username}@hookmail.test`)).accepted).toBe(1);
    expect((await send(`${alice.username}+tag@hookmail.test`)).accepted).toBe(1);
    expect((await send(`${carol.username}@hookmail.test`)).accepted).toBe(1);
    expect((await send(`${alice.username}@hookmail.test`)).accepted).toBe(0);
  });

  it("deduplicates not-processed rows too", async () => {
    const callback = await createCallback({ isEnabled: false });
    const raw = buildMessage({ messageId: "<disabled-retry@example.org>" });
    const envelope = { from: "bob@example.org", to: [`${callback.username}@hookmail.test`] };
    await acceptMessage({ parser, raw, envelope, repository, rules });
    expect((await acceptMessage({ parser, raw, envelope, repository, rules })).accepted).toBe(0);
  });

  it("never deduplicates messages without a Message-ID", async () => {
    const callback = await createCallback();
    const raw = buildMessage({ messageId: null });
    const envelope = { from: "bob@example.org", to: [`${callback.username}@hookmail.test`] };
    await acceptMessage({ parser, raw, envelope, repository, rules });
    await acceptMessage({ parser, raw, envelope, repository, rules });
    const rows = await processingsOf(callback.id);
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.messageId)).toEqual([null, null]);
  });

  it("writes one processing when the same message arrives twice at the same moment", async () => {
    const callback = await createCallback();
    const raw = buildMessage({ messageId: "<concurrent@example.org>" });
    const envelope = { from: "bob@example.org", to: [`${callback.username}@hookmail.test`] };
    const results = await Promise.all([1, 2, 3].map(() => acceptMessage({ parser, raw, envelope, repository, rules })));
    expect(results.map((result) => result.accepted).sort()).toEqual([0, 0, 1]);
    expect(await processingsOf(callback.id)).toHaveLength(1);
  });
});

describe("acceptMessage with several endpoints", () => {
  const addEndpoint = (emailCallbackId: string, { url = "https://second.example.com/hook", isEnabled = true } = {}) =>
    database.prisma.endpoint.create({
      data: { id: createId("endpoint"), emailCallbackId, url, signingScheme: "none", isEnabled },
    });
  const firstEndpointOf = (emailCallbackId: string) =>
    database.prisma.endpoint.findFirstOrThrow({ where: { emailCallbackId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

  it("writes one processing and one delivery per enabled endpoint, each claimed when claimLeaseMs is given", async () => {
    const callback = await createCallback();
    const first = await firstEndpointOf(callback.id);
    const second = await addEndpoint(callback.id);
    const now = new Date("2026-11-21T10:00:00.000Z");
    const result = await acceptFromBob([`${callback.username}@hookmail.test`], { now, claimLeaseMs: 75_000 });
    const processings = await processingsOf(callback.id);
    expect(processings.map((processing) => processing.status)).toEqual(["pending"]);
    const deliveries = await deliveriesOf(processings[0]!.id);
    const lockedUntil = new Date("2026-11-21T10:01:15.000Z");
    expect(
      deliveries
        .map(({ endpointId, status }) => ({ endpointId, status }))
        .sort((a, b) => a.endpointId.localeCompare(b.endpointId)),
    ).toEqual(
      [
        { endpointId: first.id, status: "pending" },
        { endpointId: second.id, status: "pending" },
      ].sort((a, b) => a.endpointId.localeCompare(b.endpointId)),
    );
    expect(deliveries.map((delivery) => delivery.lockedUntil)).toEqual([lockedUntil, lockedUntil]);
    expect(new Set(result.deliveryIds)).toEqual(new Set(deliveries.map((delivery) => delivery.id)));
    expect(new Set(result.claims.map((claim) => claim.id))).toEqual(new Set(result.deliveryIds));
    expect(result.claims.map((claim) => [claim.target?.processingId, claim.lockedUntil])).toEqual([
      [processings[0]!.id, lockedUntil],
      [processings[0]!.id, lockedUntil],
    ]);
  });

  it("writes no delivery to a disabled endpoint", async () => {
    const callback = await createCallback();
    const first = await firstEndpointOf(callback.id);
    await addEndpoint(callback.id, { isEnabled: false });
    const result = await acceptFromBob([`${callback.username}@hookmail.test`]);
    const [processing] = await processingsOf(callback.id);
    expect(processing?.status).toBe("pending");
    expect((await deliveriesOf(processing!.id)).map((delivery) => delivery.endpointId)).toEqual([first.id]);
    expect(result.deliveryIds).toHaveLength(1);
  });

  it("records the mail of an address whose only endpoint is disabled as not-processed / no-matching-endpoint, with no delivery", async () => {
    const callback = await createCallback();
    const first = await firstEndpointOf(callback.id);
    await database.prisma.endpoint.update({ where: { id: first.id }, data: { isEnabled: false } });
    const result = await acceptFromBob([`${callback.username}@hookmail.test`], { claimLeaseMs: 75_000 });
    expect(result).toMatchObject({ accepted: 1, pendingIds: [], deliveryIds: [], claims: [] });
    const [processing] = await processingsOf(callback.id);
    expect(processing).toMatchObject({ status: "not-processed", error: "no-matching-endpoint", payload: null });
    expect(await deliveriesOf(processing!.id)).toEqual([]);
  });
});

describe("createProcessings", () => {
  it("writes all the rows of a message or none of them", async () => {
    const callback = await createCallback();
    const now = new Date();
    const row = (emailCallbackId: string): NewProcessing => ({
      id: createId("emailProcessing"),
      emailCallbackId,
      fromAddress: "bob@example.org",
      subject: "",
      messageId: null,
      recipient: `${callback.username}@hookmail.test`,
      tag: null,
      status: "pending",
      error: null,
      rawMessage: Buffer.from("raw"),
      payload: Buffer.from("{}"),
      nextAttemptAt: now,
      deliveries: [{ id: createId("delivery"), endpointId: `ept_${emailCallbackId.slice("ecb_".length)}` }],
      lockedUntil: null,
      createdAt: now,
    });
    await expect(
      repository.createProcessings([row(callback.id), row("ecb_missing")], { duplicatesSince: now }),
    ).rejects.toThrow();
    expect(await processingsOf(callback.id)).toHaveLength(0);
  });
});

describe("checkRecipient", () => {
  it("accepts the address of a live callback, enabled or not, with or without a tag", async () => {
    const enabled = await createCallback();
    const disabled = await createCallback({ isEnabled: false });
    const accept = async (address: string) => (await checkRecipient({ address, repository, rules })) === "accepted";
    expect(await accept(`${enabled.username}@hookmail.test`)).toBe(true);
    expect(await accept(`<${enabled.username.toUpperCase()}+Tag@HOOKMAIL.test>`)).toBe(true);
    expect(await accept(`${disabled.username}@hookmail.test`)).toBe(true);
  });

  it("refuses unknown addresses, deleted callbacks and domains that are not offered", async () => {
    const deleted = await createCallback({ deletedAt: new Date(), isEnabled: false });
    const foreign = await createCallback({ domain: "retired.test" });
    const check = (address: string) => checkRecipient({ address, repository, rules });
    expect(await check("nobody-at-all@hookmail.test")).toBe("unknown-address");
    expect(await check(`${deleted.username}@hookmail.test`)).toBe("unknown-address");
    expect(await check(`${foreign.username}@retired.test`)).toBe("unknown-domain");
    expect(await check("not an address")).toBe("unknown-address");
  });
});
