// Starts the app as `npm start` does, in a fresh DATA_DIR: without DATABASE_URL the app runs its own
// embedded PostgreSQL server there, as a user's first `npm start` does; with DATABASE_URL, on a
// fresh database on that server, dropped on exit. Its outgoing mail goes over real SMTP to a
// loopback sink whose catch the tests read over HTTP
// (GET http://127.0.0.1:$E2E_SINK_HTTP_PORT/mails?to=<address>). The same loopback port lets tests
// seed inbox rows through this process's own database connection (POST /seed/processings
// {emailCallbackId, count, recipients?}), and mark a domain added through the API verified as a
// passing DNS check would (POST /seed/verified-domain {domainId}: these servers have no DNS to
// check), and put an account on a plan (POST /seed/plan {email, planId}), so they need not know
// where the database is.
//
// With E2E_DNS_PORT, the app's DNS_SERVERS is a DNS server on 127.0.0.1 at that port (UDP,
// tests/support/dns-server.ts) answering NXDOMAIN for every name until a test publishes records on
// it through the same loopback HTTP port: PUT /dns/<name> {TXT?, MX?, A?, AAAA?} sets a name's
// records, DELETE /dns/<name> forgets them (tests/e2e/support/dns.ts). Domain checks ask it
// (docs/domains.md: Verification); mail authentication stays off (MAIL_AUTH_CHECKS=false).
//
// Playwright stops this process with SIGTERM (playwright.config.ts: gracefulShutdown): the app stops
// its roles and its database (the embedded server too), and only then does `cleanUp` drop the
// database or remove DATA_DIR.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { type DnsEntry, startDnsServer } from "../../support/dns-server";
import { startFakeStripe } from "../../support/fake-stripe";
import { createDatabaseOnServer } from "../../support/server-database";
import { startSmtpSink } from "../../support/smtp-sink";

const environment = process.env as Record<string, string | undefined>;
environment.NODE_ENV ??= "production";
environment.EMAIL_DOMAINS ??= "hookmail.test";
// Mail authentication has its own tests with a DNS server on loopback: off here, so no mail asks DNS.
environment.MAIL_AUTH_CHECKS ??= "false";
const dns = environment.E2E_DNS_PORT ? await startDnsServer({}, { port: Number(environment.E2E_DNS_PORT) }) : undefined;
if (dns) environment.DNS_SERVERS = dns.address;

const sink = await startSmtpSink();
environment.SMTP_URL = sink.url;
environment.MAIL_FROM = "Hookmail <no-reply@hookmail.test>";
const sinkApi = http.createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  response.setHeader("Content-Type", "application/json");
  if (request.method === "POST" && url.pathname === "/seed/processings") {
    void readJson(request)
      .then((body) => seedProcessings(body as { emailCallbackId: string; count: number; recipients?: string[] }))
      .then((seeded) => response.end(JSON.stringify({ seeded })))
      .catch((error: unknown) => {
        response.statusCode = 500;
        response.end(JSON.stringify({ error: String(error) }));
      });
    return;
  }
  if (request.method === "POST" && url.pathname === "/seed/verified-domain") {
    void readJson(request)
      .then((body) => markDomainVerified(body as { domainId: string }))
      .then((name) => response.end(JSON.stringify({ verified: name })))
      .catch((error: unknown) => {
        response.statusCode = 500;
        response.end(JSON.stringify({ error: String(error) }));
      });
    return;
  }
  if (request.method === "POST" && url.pathname === "/seed/plan") {
    void readJson(request)
      .then((body) => setPlan(body as { email: string; planId: string }))
      .then((planId) => response.end(JSON.stringify({ planId })))
      .catch((error: unknown) => {
        response.statusCode = 500;
        response.end(JSON.stringify({ error: String(error) }));
      });
    return;
  }
  const dnsName = /^\/dns\/([^/]+)$/.exec(url.pathname)?.[1];
  if (dnsName !== undefined) {
    void answerDnsChange(request, decodeURIComponent(dnsName))
      .then((status) => {
        response.statusCode = status;
        response.end();
      })
      .catch((error: unknown) => {
        response.statusCode = 500;
        response.end(JSON.stringify({ error: String(error) }));
      });
    return;
  }
  const to = url.searchParams.get("to")?.toLowerCase();
  const mails = sink.messages.filter((mail) => !to || mail.envelopeTo.some((address) => address.toLowerCase() === to));
  response.end(JSON.stringify(mails));
});

/** PUT sets the name's records, DELETE forgets them; 404 when this server has no DNS server. */
async function answerDnsChange(request: http.IncomingMessage, name: string): Promise<number> {
  if (!dns) return 404;
  if (request.method === "PUT") dns.set(name, (await readJson(request)) as DnsEntry);
  else if (request.method === "DELETE") dns.remove(name);
  else return 405;
  return 204;
}

async function readJson(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

async function markDomainVerified({ domainId }: { domainId: string }) {
  const { getServices } = await import("../../../modules/server/services");
  const { prisma } = await getServices().database();
  const now = new Date();
  const domain = await prisma.domain.update({
    where: { id: domainId },
    data: { status: "verified", verifiedAt: now, lastCheckedAt: now, lastCheckError: null },
  });
  return domain.name;
}

/** Puts an account on a plan, as a paid checkout would (the billing journeys go through checkout itself). */
async function setPlan({ email, planId }: { email: string; planId: string }) {
  const { getServices } = await import("../../../modules/server/services");
  const { prisma } = await getServices().database();
  const user = await prisma.user.update({ where: { email }, data: { planId } });
  return user.planId;
}

/** `recipients`: the envelope recipients of the rows, in turn (a catch-all's inbox). */
async function seedProcessings({
  emailCallbackId,
  count,
  recipients = ["seeded@hookmail.test"],
}: {
  emailCallbackId: string;
  count: number;
  recipients?: string[];
}) {
  const { getServices } = await import("../../../modules/server/services");
  const { createId } = await import("../../../modules/shared/ids");
  const { prisma } = await getServices().database();
  const now = Date.now();
  const statuses: { status: string; error: string | null; webhookResponseStatusCode: number | null }[] = [
    { status: "success", error: null, webhookResponseStatusCode: 200 },
    { status: "error", error: "webhook-failed", webhookResponseStatusCode: 500 },
    { status: "not-processed", error: "from-address-not-allowed", webhookResponseStatusCode: null },
  ];
  const rows = Array.from({ length: count }, (_, index) => ({
    id: createId("emailProcessing"),
    emailCallbackId,
    fromAddress: `sender${index + 1}@example.org`,
    subject: `Seeded message ${index + 1}`,
    recipient: recipients[index % recipients.length] ?? "seeded@hookmail.test",
    ...(statuses[index % statuses.length] ?? statuses[0]!),
    createdAt: new Date(now - (count - index) * 60_000),
  }));
  await prisma.emailProcessing.createMany({ data: rows });
  // A delivered or failed mail's delivery to the address's first endpoint, in the mail's state (as the
  // product and tests/support/seed.ts write them); a mail not processed has none.
  const endpoint = await prisma.endpoint.findFirstOrThrow({
    where: { emailCallbackId, deletedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  await prisma.delivery.createMany({
    data: rows
      .filter((row) => row.status === "success" || row.status === "error")
      .map((row) => ({
        id: createId("delivery"),
        emailProcessingId: row.id,
        endpointId: endpoint.id,
        status: row.status,
        error: row.error,
        attemptCount: 0,
        lastStatusCode: row.webhookResponseStatusCode,
        createdAt: row.createdAt,
      })),
  });
  return count;
}
await new Promise<void>((resolve) => sinkApi.listen(Number(environment.E2E_SINK_HTTP_PORT), "127.0.0.1", resolve));

// Billing against a local fake Stripe whose checkout page pays and sends the signed webhook
// events to this server (E2E_FAKE_STRIPE=1).
const WEBHOOK_SECRET = "whsec_e2e_fake_stripe_secret";
const fakeStripe =
  environment.E2E_FAKE_STRIPE === "1"
    ? await startFakeStripe({
        port: Number(environment.E2E_FAKE_STRIPE_PORT ?? 0),
        webhook: { url: `${environment.BASE_URL}/api/payments/webhook`, secret: WEBHOOK_SECRET },
      })
    : undefined;
if (fakeStripe) {
  environment.STRIPE_SECRET_KEY = "sk_test_e2e";
  environment.STRIPE_PRO_PRICE_ID = "price_pro_test";
  environment.STRIPE_API_URL = fakeStripe.url;
  environment.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-e2e-"));
environment.DATA_DIR = dataDir;
let dropDatabase: (() => Promise<void>) | undefined;
if (environment.DATABASE_URL) {
  const database = await createDatabaseOnServer(environment.DATABASE_URL);
  environment.DATABASE_URL = database.url;
  dropDatabase = database.drop;
}

async function cleanUp() {
  await fakeStripe?.close();
  await dns?.close().catch(() => undefined);
  sinkApi.close();
  await sink.close().catch(() => undefined);
  await dropDatabase?.().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const { startHookmail } = await import("../../../modules/server/start");
await startHookmail({ projectDir: path.resolve(import.meta.dirname, "../../.."), afterShutdown: cleanUp });
