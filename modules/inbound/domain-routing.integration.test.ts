// Routing on users' own domains over real SMTP (docs/domains.md: Routing): nodemailer and a raw
// client → the product's SMTP listener → the pipeline on a fresh database. Exact beats pattern, the
// longer pattern beats the shorter, ties go to the oldest, the catch-all comes last; a pending
// domain answers 550 5.1.2 and an unknown local part 550 5.1.1; /api/inbound/raw routes the same;
// a domain verified by another process is served within the cache's bound.
import { createTransport } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postInbound } from "@/app/api/inbound/[provider]/route";
import { createId } from "@/modules/shared/ids";
import { connectRawSmtpClient } from "@/modules/smtp/test-support/raw-smtp-client";
import { type MailPipeline, startMailPipeline } from "@/tests/support/mail-pipeline";
import { seedEmailCallback, seedUser } from "@/tests/support/seed";
import { createInboundRepository } from "./inbound.repository";
import { checkRecipient } from "./inbound.usecases";
import { createRecipientCache, RECIPIENT_CACHE_DEFAULTS, withRecipientCache } from "./recipient-cache";

const INBOUND_SECRET = "domain-routing-inbound-secret";

let pipeline: MailPipeline;
let ownerId: string;
const ids: Record<string, string> = {};

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function seedDomain(name: string, userId: string, status: "pending" | "verified" | "failing") {
  await pipeline.database.prisma.domain.create({ data: { id: createId("domain"), userId, name, token: "t", status } });
}

async function seedAddress(
  label: string,
  username: string,
  domain: string,
  extra: { createdAt?: Date; isEnabled?: boolean; userId?: string } = {},
) {
  const callback = await seedEmailCallback(pipeline.database, {
    userId: ownerId,
    domain,
    username,
    webhookUrl: pipeline.sink.url(`/${label}`),
    ...extra,
  });
  ids[label] = callback.id;
}

beforeAll(async () => {
  pipeline = await startMailPipeline({ name: "domain-routing", environment: { INBOUND_SECRET } });
  ownerId = (await seedUser(pipeline.database)).id;
  const otherId = (await seedUser(pipeline.database)).id;
  await seedDomain("shop.example", ownerId, "verified");
  await seedDomain("strict.example", ownerId, "failing");
  await seedDomain("pending.example", ownerId, "pending");
  await seedDomain("lapsed.example", otherId, "verified");
  await seedAddress("exact", "orders-eu", "shop.example");
  await seedAddress("long", "orders-*", "shop.example");
  await seedAddress("short", "or*", "shop.example");
  await seedAddress("tie-old", "in*", "shop.example", { createdAt: minutesAgo(10) });
  await seedAddress("tie-new", "*fo", "shop.example", { createdAt: minutesAgo(5) });
  await seedAddress("paused", "paused", "shop.example", { isEnabled: false });
  await seedAddress("catch-all", "*", "shop.example");
  await seedAddress("strict", "known", "strict.example");
  // Addresses made while their domain was held: a pending domain, or one another account holds now.
  await seedAddress("on-pending", "*", "pending.example");
  await seedAddress("on-lapsed", "*", "lapsed.example");
});
afterAll(() => pipeline?.close());

const transport = () => createTransport({ host: "127.0.0.1", port: pipeline.listener.getPort(), secure: false, ignoreTLS: true });

/** Sends one mail to `to` and answers the address (by label) that recorded it. */
async function routeBySmtp(to: string): Promise<string | undefined> {
  const subject = createId("emailProcessing");
  await transport().sendMail({
    envelope: { from: "bob@sender.example", to: [to] },
    from: "bob@sender.example",
    subject,
    text: "x",
  });
  const row = await pipeline.database.prisma.emailProcessing.findFirst({ where: { subject } });
  return Object.entries(ids).find(([, id]) => id === row?.emailCallbackId)?.[0];
}

async function rcptReply(to: string): Promise<string> {
  const client = await connectRawSmtpClient({ host: "127.0.0.1", port: pipeline.listener.getPort() });
  try {
    await client.readReply();
    await client.command("EHLO client.example");
    await client.command("MAIL FROM:<bob@sender.example>");
    return await client.command(`RCPT TO:<${to}>`);
  } finally {
    client.destroy();
  }
}

describe("routing a recipient on a user's domain over SMTP", () => {
  it("goes to the exact address before any pattern", async () => {
    expect(await routeBySmtp("orders-eu@shop.example")).toBe("exact");
  });

  it("goes to the matching pattern with the most literal characters", async () => {
    expect(await routeBySmtp("orders-fr@shop.example")).toBe("long");
    expect(await routeBySmtp("ordinary@shop.example")).toBe("short");
  });

  it("needs one character or more for each *", async () => {
    expect(await routeBySmtp("orders-@shop.example")).toBe("short");
    expect(await routeBySmtp("or@shop.example")).toBe("catch-all");
  });

  it("gives a tie between patterns of as many literal characters to the oldest", async () => {
    expect(await routeBySmtp("info@shop.example")).toBe("tie-old");
  });

  it("falls back to the catch-all", async () => {
    expect(await routeBySmtp("anything.else@shop.example")).toBe("catch-all");
  });

  it("routes without the +tag and whatever the case, and sends data.recipient as the sender wrote it", async () => {
    pipeline.sink.reset();
    // nodemailer writes the domain lower-case in the envelope; the local part goes as typed.
    expect(await routeBySmtp("Orders-FR+Q3@shop.example")).toBe("long");
    await pipeline.sink.waitForRequests(1);
    const [request] = pipeline.sink.requests;
    expect(request?.path).toBe("/long");
    const { data } = JSON.parse(request!.body.toString("utf8"));
    expect(data).toMatchObject({ address: "orders-*@shop.example", recipient: "Orders-FR+Q3@shop.example", tag: "q3" });
  });

  it("accepts mail for a disabled address and records it not-processed / not-enabled", async () => {
    expect(await routeBySmtp("paused@shop.example")).toBe("paused");
    const row = await pipeline.database.prisma.emailProcessing.findFirst({ where: { emailCallbackId: ids.paused } });
    expect(row).toMatchObject({ status: "not-processed", error: "not-enabled" });
  });

  it("answers 550 5.1.1 for an unknown local part on a served domain (verified or failing) without a catch-all", async () => {
    expect(await rcptReply("known@strict.example")).toMatch(/^250 /);
    expect(await rcptReply("nobody@strict.example")).toMatch(/^550 5\.1\.1 /);
  });

  it("answers 550 5.1.2 for a pending domain, even with an address on it, as for a domain nobody has", async () => {
    expect(await rcptReply("anyone@pending.example")).toMatch(/^550 5\.1\.2 /);
    expect(await rcptReply("anyone@nobody-has-it.example")).toMatch(/^550 5\.1\.2 /);
  });

  it("routes nothing to an address whose owner no longer holds its domain", async () => {
    expect(await rcptReply("anyone@lapsed.example")).toMatch(/^550 5\.1\.1 /);
  });
});

describe("routing through the provider routes", () => {
  it("routes each recipient of an envelope posted to /api/inbound/raw as SMTP does, and drops those no address takes", async () => {
    const subject = createId("emailProcessing");
    const to = [
      "orders-eu@shop.example",
      "orders-x@shop.example",
      "info@shop.example",
      "z@shop.example",
      "a@pending.example",
      "a@lapsed.example",
    ];
    const response = await postInbound(
      new Request("http://localhost:3000/api/inbound/raw", {
        method: "POST",
        headers: {
          authorization: `Bearer ${INBOUND_SECRET}`,
          "content-type": "message/rfc822",
          "x-envelope-from": "bob@sender.example",
          "x-envelope-to": to.join(","),
        },
        body: `From: bob@sender.example\r\nSubject: ${subject}\r\n\r\nhi\r\n`,
      }),
      { params: Promise.resolve({ provider: "raw" }) },
    );
    expect(await response.json()).toEqual({ accepted: 4 });
    const rows = await pipeline.database.prisma.emailProcessing.findMany({ where: { subject } });
    const labels = rows.map((row) => Object.entries(ids).find(([, id]) => id === row.emailCallbackId)?.[0]).sort();
    expect(labels).toEqual(["catch-all", "exact", "long", "tie-old"]);
  });
});

describe("the served domains of the RCPT check", () => {
  it("lets the running SMTP listener accept mail for a domain verified after it answered 5.1.2, within RECIPIENT_CACHE_DEFAULTS.domainTtlMs", async () => {
    const name = "fresh.example";
    await seedDomain(name, ownerId, "pending");
    await seedAddress("fresh", "*", name);
    expect(await rcptReply(`a@${name}`)).toMatch(/^550 5\.1\.2 /);
    await pipeline.database.prisma.domain.updateMany({ where: { name }, data: { status: "verified" } });
    const verifiedAt = Date.now();
    let reply = await rcptReply(`a@${name}`);
    while (!reply.startsWith("250") && Date.now() - verifiedAt < RECIPIENT_CACHE_DEFAULTS.domainTtlMs + 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      reply = await rcptReply(`a@${name}`);
    }
    expect(reply).toMatch(/^250 /);
    // The bound plus one poll and the load of a shared machine.
    expect(Date.now() - verifiedAt).toBeLessThan(RECIPIENT_CACHE_DEFAULTS.domainTtlMs + 2_000);
  }, 15_000);

  it("sees a domain another process verifies within its bound (domainTtlMs), without a restart", async () => {
    const repository = withRecipientCache(createInboundRepository(pipeline.database), createRecipientCache({ domainTtlMs: 300 }));
    const rules = { emailDomains: ["hookmail.test"] };
    const name = "late.example";
    await seedDomain(name, ownerId, "pending");
    await seedAddress("late", "*", name);
    expect(await checkRecipient({ address: `a@${name}`, repository, rules })).toBe("unknown-domain");
    // Another process (here: another client of the database) verifies it.
    await pipeline.database.prisma.domain.updateMany({ where: { name }, data: { status: "verified" } });
    expect(await checkRecipient({ address: `a@${name}`, repository, rules })).toBe("unknown-domain");
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await checkRecipient({ address: `a@${name}`, repository, rules })).toBe("accepted");
  });
});
