// The daily re-check of users' domains run by a real worker process (docs/domains.md: Daily
// re-check): `node --import tsx server.ts` with HOOKMAIL_ROLES=worker, as production starts it, on a
// fresh migrated database, asking a DNS server on loopback, with DOMAIN_RECHECK_SWEEP_MS shortened to
// one second. Nothing here calls the sweep: the process's own timer does.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/modules/db/db";
import { createId } from "@/modules/shared/ids";
import { startDnsServer, type TestDnsServer } from "@/tests/support/dns-server";
import { seedUser } from "@/tests/support/seed";
import { createTestDatabaseUrl } from "@/tests/support/test-database";

const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
const MX_HOSTNAME = "mx.hookmail.example";
const HOUR = 3_600_000;
const SWEEP_MS = 1000;
/**
 * The first sweep comes SWEEP_MS after start-up (tsx and the app's modules: about 3 s on an idle
 * machine, 14 s measured with two cores shared by a dozen busy processes); this only bounds a failure.
 */
const WAIT_MS = 45_000;

let database: Database;
let dropDatabase: () => Promise<void>;
let databaseUrl: string;
let dns: TestDnsServer;
let dataDir: string;

beforeAll(async () => {
  ({ url: databaseUrl, drop: dropDatabase } = await createTestDatabaseUrl());
  database = await openDatabase({ url: databaseUrl, poolSize: 2 });
  dns = await startDnsServer();
  dataDir = await mkdtemp(path.join(os.tmpdir(), "hookmail-worker-rechecks-"));
});
afterAll(async () => {
  await dns?.close();
  await database?.close();
  await dropDatabase?.();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/**
 * The worker as `npm start` runs it, in a child process; its output is kept for the failure messages.
 * It inherits this process's environment (PATH and the like) minus what vitest adds (BASE_URL "/"
 * among them) and what would change the app's behaviour.
 */
function startWorker(): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(environment)) {
    if (name.startsWith("VITEST") || ["NODE_OPTIONS", "TEST", "BASE_URL", "DATABASE_URL", "AUTH_SECRET"].includes(name))
      delete environment[name];
  }
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: PROJECT_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...environment,
      NODE_ENV: "production",
      HOOKMAIL_ROLES: "worker",
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: randomBytes(32).toString("base64"),
      DATA_DIR: dataDir,
      EMAIL_DOMAINS: "hookmail.test",
      MX_HOSTNAME,
      DNS_SERVERS: dns.address,
      DOMAIN_RECHECK_SWEEP_MS: String(SWEEP_MS),
      LOG_FORMAT: "json",
    },
  });
  let output = "";
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** A user's domain in the given state, and the two records that make it pass published or not. */
async function seedDomain({ name, lastCheckedAt, isPublished }: { name: string; lastCheckedAt: Date; isPublished: boolean }) {
  const { id: userId } = await seedUser(database, { email: `owner@${name}`, name: "Ada" });
  const token = `token${userId.slice(-12)}`;
  const { id } = await database.prisma.domain.create({
    data: { id: createId("domain"), userId, name, token, status: "verified", verifiedAt: lastCheckedAt, lastCheckedAt },
  });
  if (isPublished) {
    dns.set(`_hookmail.${name}`, { TXT: [`hookmail-verification=${token}`] });
    dns.set(name, { MX: [{ exchange: MX_HOSTNAME, priority: 10 }] });
  }
  return id;
}

const readDomain = (id: string) => database.prisma.domain.findUniqueOrThrow({ where: { id } });

async function waitFor(condition: () => Promise<boolean>, worker: ReturnType<typeof startWorker>) {
  const deadline = Date.now() + WAIT_MS;
  while (!(await condition())) {
    const { exitCode } = worker.child;
    if (Date.now() > deadline || exitCode !== null) {
      const state = exitCode === null ? `not reached within ${WAIT_MS} ms` : `the worker exited with ${exitCode}`;
      throw new Error(`${state}; its output:\n${worker.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("the worker process's domain re-check timer", () => {
  it("makes a verified domain whose records vanished failing, re-checks one still published, and leaves one checked an hour ago alone", async () => {
    const startedAt = new Date();
    const vanished = await seedDomain({
      name: "vanished.example",
      lastCheckedAt: new Date(startedAt.getTime() - 25 * HOUR),
      isPublished: false,
    });
    const published = await seedDomain({
      name: "published.example",
      lastCheckedAt: new Date(startedAt.getTime() - 25 * HOUR),
      isPublished: true,
    });
    const recentlyChecked = new Date(startedAt.getTime() - HOUR);
    const recent = await seedDomain({ name: "recent.example", lastCheckedAt: recentlyChecked, isPublished: false });

    const worker = startWorker();
    try {
      await waitFor(
        async () =>
          (await readDomain(vanished)).status === "failing" &&
          (await readDomain(published)).lastCheckedAt! >= startedAt &&
          worker.output().includes("Domains re-checked"),
        worker,
      );

      expect(await readDomain(vanished)).toMatchObject({
        status: "failing",
        lastCheckError: expect.stringMatching(/^TXT _hookmail\.vanished\.example /),
      });
      expect((await readDomain(vanished)).failingSince!.getTime()).toBeGreaterThanOrEqual(startedAt.getTime());
      expect(await readDomain(published)).toMatchObject({ status: "verified", lastCheckError: null, failingSince: null });
      expect(await readDomain(recent)).toMatchObject({ status: "verified", lastCheckedAt: recentlyChecked });
      expect(dns.queries).not.toContain("TXT _hookmail.recent.example");
    } finally {
      worker.child.kill("SIGTERM");
    }
    expect(await worker.exited).toBe(0);
  });
});
