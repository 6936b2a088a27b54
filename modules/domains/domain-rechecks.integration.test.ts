// The worker's daily re-check of domains (docs/domains.md: Daily re-check) on a fresh migrated
// database, against a DNS server on loopback: two "processes", each with its own connection pool and
// its own mailer writing to its own development outbox, a controllable clock for the 72 h grace
// period, and routing read through the inbound repository (what the MX asks at RCPT TO).
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import { createInboundRepository } from "@/modules/inbound/inbound.repository";
import { createMailer, type OutboxMail } from "@/modules/mail/mailer";
import { createMailAuthResolver } from "@/modules/mail-checks/dns-resolver";
import { createId } from "@/modules/shared/ids";
import { startDnsServer, type TestDnsServer } from "@/tests/support/dns-server";
import { silentLogger } from "@/tests/support/memory-logger";
import { seedEmailCallback, seedUser } from "@/tests/support/seed";
import { createTestClock } from "@/tests/support/test-clock";
import { createTestDatabasePair } from "@/tests/support/test-database";
import { createDomainRechecks } from "./domain-rechecks";
import { createDomainRechecksRepository } from "./domain-rechecks.repository";
import { DOMAIN_CHECK_TIMEOUT_MS } from "./domains.constants";

const HOUR = 3_600_000;
const MX_HOSTNAME = "mx.hookmail.example";
const BASE_URL = "https://hookmail.example";
const START = new Date("2026-11-20T08:00:00.000Z");

let database: Database;
let otherDatabase: Database;
let closeDatabases: () => Promise<void>;
let dns: TestDnsServer;
let outboxRoot: string;
const time = createTestClock();

beforeAll(async () => {
  ({ database, otherDatabase, close: closeDatabases } = await createTestDatabasePair());
  dns = await startDnsServer();
  outboxRoot = await mkdtemp(path.join(os.tmpdir(), "hookmail-rechecks-"));
});
afterAll(async () => {
  await dns?.close();
  await closeDatabases?.();
  if (outboxRoot) await rm(outboxRoot, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.prisma.domain.deleteMany();
  await rm(outboxRoot, { recursive: true, force: true });
  dns.queries.length = 0;
  time.set(START);
});

/** The re-checks of one "process": its database, its resolver and its mailer's outbox. */
function newRechecks(db: Database, name: string, batchSize?: number) {
  return createDomainRechecks({
    repository: createDomainRechecksRepository(db),
    resolver: createMailAuthResolver({ servers: [dns.address], timeoutMs: DOMAIN_CHECK_TIMEOUT_MS }),
    mailer: createMailer({
      smtpUrl: undefined,
      from: "Hookmail <no-reply@hookmail.test>",
      outboxDir: path.join(outboxRoot, name),
      logger: silentLogger,
    }),
    mxHostname: MX_HOSTNAME,
    baseUrl: BASE_URL,
    logger: silentLogger,
    clock: time.now,
    batchSize,
  });
}

async function readOutboxes(): Promise<OutboxMail[]> {
  const mails: OutboxMail[] = [];
  for (const name of ["worker-a", "worker-b"]) {
    const dir = path.join(outboxRoot, name);
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files) mails.push(JSON.parse(await readFile(path.join(dir, file), "utf8")) as OutboxMail);
  }
  return mails;
}

/** Sets (or removes) the two records that make `name` pass its check. */
function publishRecords(name: string, token: string, isRight: boolean) {
  dns.set(`_hookmail.${name}`, { TXT: isRight ? [`hookmail-verification=${token}`] : [] });
  dns.set(name, { MX: isRight ? [{ exchange: MX_HOSTNAME, priority: 10 }] : [] });
}

/** An owner, their domain in the given state, and an address `hello@` on it. */
async function seedDomain({
  name,
  status,
  lastCheckedAt = new Date(START.getTime() - 25 * HOUR),
  failingSince = null,
  locale = "en",
  isRight,
}: {
  name: string;
  status: "verified" | "failing" | "pending";
  lastCheckedAt?: Date;
  failingSince?: Date | null;
  locale?: string;
  isRight: boolean;
}) {
  const userId = createId("user");
  const email = `owner-${userId.toLowerCase()}@example.com`;
  await seedUser(database, { id: userId, name: "Ada", email, locale });
  const token = `token${userId.slice(-12)}`;
  const domain = await database.prisma.domain.create({
    data: { id: createId("domain"), userId, name, token, status, verifiedAt: START, lastCheckedAt, failingSince },
  });
  await seedEmailCallback(database, { userId, domain: name, username: "hello" });
  publishRecords(name, token, isRight);
  return { id: domain.id, email, token };
}

const readDomain = (id: string) => database.prisma.domain.findUniqueOrThrow({ where: { id } });
const routeOf = (domain: string) => createInboundRepository(database).findRoute({ domain, username: "hello" }, ["hookmail.test"]);
const txtQueriesOf = (name: string) => dns.queries.filter((query) => query === `TXT _hookmail.${name}`).length;

describe("the daily re-check of domains", () => {
  it("keeps a passing verified domain verified and moves its lastCheckedAt; skips domains checked less than 24 h ago", async () => {
    const due = await seedDomain({ name: "fine.example", status: "verified", isRight: true });
    const recent = await seedDomain({
      name: "recent.example",
      status: "verified",
      lastCheckedAt: new Date(START.getTime() - 23 * HOUR),
      isRight: false,
    });

    expect(await newRechecks(database, "worker-a").recheckDueDomains()).toBe(1);

    expect(await readDomain(due.id)).toMatchObject({ status: "verified", lastCheckedAt: START, lastCheckError: null });
    expect(await readDomain(recent.id)).toMatchObject({
      status: "verified",
      lastCheckedAt: new Date(START.getTime() - 23 * HOUR),
    });
    expect(txtQueriesOf("recent.example")).toBe(0);
    expect(await readOutboxes()).toEqual([]);
  });

  it("makes a verified domain whose check fails failing, still routing its mail, without a mail", async () => {
    const { id } = await seedDomain({ name: "broken.example", status: "verified", isRight: false });

    await newRechecks(database, "worker-a").recheckDueDomains();

    expect(await readDomain(id)).toMatchObject({
      status: "failing",
      failingSince: START,
      lastCheckError: "TXT _hookmail.broken.example not found; MX broken.example not found",
    });
    expect(await routeOf("broken.example")).not.toBeNull();
    expect(await readOutboxes()).toEqual([]);
  });

  it("keeps a domain failing for 71 h, makes it pending at 72 h with one mail in its owner's language, then leaves it alone", async () => {
    const hoursAgo = (hours: number) => new Date(START.getTime() - hours * HOUR);
    const early = await seedDomain({ name: "early.example", status: "failing", failingSince: hoursAgo(71), isRight: false });
    const en = await seedDomain({ name: "gone.example", status: "failing", failingSince: hoursAgo(72), isRight: false });
    const fr = await seedDomain({
      name: "parti.example",
      status: "failing",
      failingSince: hoursAgo(72),
      locale: "fr",
      isRight: false,
    });
    const rechecks = newRechecks(database, "worker-a");

    await rechecks.recheckDueDomains();
    expect(await readDomain(early.id)).toMatchObject({ status: "failing", failingSince: hoursAgo(71) });
    expect(await routeOf("early.example")).not.toBeNull();
    expect(await readDomain(en.id)).toMatchObject({ status: "pending", failingSince: null });
    expect(await readDomain(fr.id)).toMatchObject({ status: "pending" });
    expect(await routeOf("gone.example")).toBeNull();
    const mails = await readOutboxes();
    expect(mails.map((mail) => [mail.to, mail.subject]).sort()).toEqual(
      [
        [en.email, "gone.example no longer receives mail"],
        [fr.email, "parti.example ne reçoit plus d'e-mails"],
      ].sort(),
    );
    const enMail = mails.find((mail) => mail.to === en.email)!;
    expect(enMail.text).toContain("TXT _hookmail.gone.example not found; MX gone.example not found");
    expect(enMail.text).toContain(`_hookmail.gone.example hookmail-verification=${en.token}`);
    expect(enMail.text).toContain(`gone.example ${MX_HOSTNAME}`);
    expect(enMail.text).toContain(`${BASE_URL}/domains`);
    // The French owner reads what is wrong in French.
    const frMail = mails.find((mail) => mail.to === fr.email)!;
    expect(frMail.text).toContain("TXT _hookmail.parti.example introuvable; MX parti.example introuvable");

    // A day later the early one's grace is over too; the pending ones are not checked again.
    dns.queries.length = 0;
    time.advance(24 * HOUR);
    expect(await rechecks.recheckDueDomains()).toBe(1);
    expect(await readDomain(early.id)).toMatchObject({ status: "pending" });
    expect(txtQueriesOf("gone.example")).toBe(0);
    time.advance(48 * HOUR);
    expect(await rechecks.recheckDueDomains()).toBe(0);
    expect((await readOutboxes()).map((mail) => mail.to).sort()).toEqual([early.email, en.email, fr.email].sort());
  });

  it("makes a failing domain whose check passes verified again, mailing its owner once", async () => {
    const { id, email } = await seedDomain({
      name: "back.example",
      status: "failing",
      failingSince: new Date(START.getTime() - 30 * HOUR),
      isRight: true,
    });
    const rechecks = newRechecks(database, "worker-a");

    await rechecks.recheckDueDomains();
    expect(await readDomain(id)).toMatchObject({
      status: "verified",
      failingSince: null,
      lastCheckError: null,
      verifiedAt: START,
    });
    time.advance(25 * HOUR);
    await rechecks.recheckDueDomains();

    const mails = await readOutboxes();
    expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([[email, "back.example is verified again"]]);
  });

  it("checks each due domain exactly once when two processes sweep at the same time", async () => {
    const since = new Date(START.getTime() - 80 * HOUR);
    const names = Array.from({ length: 24 }, (_, index) => `shared-${index}.example`);
    for (const name of names) await seedDomain({ name, status: "failing", failingSince: since, isRight: false });

    const checked = await Promise.all([
      newRechecks(database, "worker-a", 5).recheckDueDomains(),
      newRechecks(otherDatabase, "worker-b", 5).recheckDueDomains(),
    ]);

    expect(checked[0] + checked[1]).toBe(names.length);
    for (const name of names) expect(txtQueriesOf(name)).toBe(1);
    const mails = await readOutboxes();
    expect(mails).toHaveLength(names.length);
    expect(await database.prisma.domain.count({ where: { status: "pending" } })).toBe(names.length);
  });

  it("skips a domain another process is claiming rather than waiting for it or checking it too", async () => {
    const free = await seedDomain({ name: "free.example", status: "verified", isRight: true });
    const taken = await seedDomain({ name: "taken.example", status: "verified", isRight: true });

    const checked = await otherDatabase.prisma.$transaction(
      async (tx) => {
        // What the other process's claim holds until it commits.
        await tx.$queryRaw`SELECT id FROM domain WHERE id = ${taken.id} FOR UPDATE`;
        const count = await newRechecks(database, "worker-a").recheckDueDomains();
        await tx.domain.update({ where: { id: taken.id }, data: { lastCheckedAt: START } });
        return count;
      },
      { timeout: 10_000 },
    );

    expect(checked).toBe(1);
    expect(txtQueriesOf("free.example")).toBe(1);
    expect(txtQueriesOf("taken.example")).toBe(0);
    expect(await readDomain(free.id)).toMatchObject({ lastCheckedAt: START });
  });

  it("writes nothing and mails nobody when the domain changed during its check (the owner's Verify now)", async () => {
    const { id } = await seedDomain({
      name: "slow.example",
      status: "failing",
      failingSince: new Date(START.getTime() - 80 * HOUR),
      isRight: false,
    });
    dns.silence("_hookmail.slow.example"); // The check takes its whole 5 s.

    const sweep = newRechecks(database, "worker-a").recheckDueDomains();
    await expect.poll(() => txtQueriesOf("slow.example")).toBe(1);
    const verifiedNow = new Date(START.getTime() + 1000);
    await database.prisma.domain.update({
      where: { id },
      data: { status: "verified", failingSince: null, lastCheckError: null, lastCheckedAt: verifiedNow },
    });
    expect(await sweep).toBe(1);

    expect(await readDomain(id)).toMatchObject({ status: "verified", lastCheckedAt: verifiedNow, lastCheckError: null });
    expect(await readOutboxes()).toEqual([]);
  }, 15_000);
});
