// Zero loss on the zero-config default, as a user runs it (README: Run it): the app started as
// `npm start` starts it with no DATABASE_URL and a fresh DATA_DIR, so it runs its own embedded
// PostgreSQL server there. Mail arrives over SMTP without a pause while the app is killed twice:
//
// - first the app and every process of its database server (SIGKILL), as a power cut would short
//   of the disk: the next start finds a stale postmaster.pid and must start the server again;
// - then the app alone (SIGKILL): the server it started keeps running, and the next start must
//   use it again (docs/scaling.md: The embedded server).
//
// Senders retry like MTAs. Every mail answered 250 must reach the webhook (a loopback receiver)
// and be recorded once as a success; then SIGTERM must stop the app and its database server
// cleanly: exit code 0, no postmaster.pid, no server process left.
import { describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/modules/db/db";
import { type CreatedCallback, createAccountOnApp } from "./support/app-account";
import { type AppProcess, startAppProcess, tail } from "./support/app-process";
import {
  findLiveProcesses,
  findProcessesNamingCluster,
  getEmbeddedDatabaseUrl,
  killServer,
  listServerProcesses,
  readEmbeddedServerLock,
} from "./support/embedded-server-processes";
import { setUpReliabilityTest } from "./support/reliability-setup";
import { attemptSmtp, createSmtpTransport, type SendOutcome, sendLikeAnMta } from "./support/retrying-senders";
import { buildRaw, buildTestMail, findMailIdOfMessageId, runPool, type TestMail } from "./support/test-mails";
import { startWebhookSink } from "./support/webhook-sink";

const TOTAL_MAILS = 600;
const SMTP_SESSIONS = 4;
const USERNAMES = ["embedded-a", "embedded-b"];
/** The crashes, in order, each when this many mails have been answered 250. */
const CRASHES = [
  { atAccepted: 150, killsServer: true },
  { atAccepted: 400, killsServer: false },
] as const;
const WEBHOOK_TIMEOUT_MS = 5_000;
const SEND_DEADLINE_MS = 5 * 60_000;
/** Deliveries the killed app had claimed are taken over when their lease ends (WEBHOOK_TIMEOUT_MS + 60 s). */
const COMPLETION_TIMEOUT_MS = 4 * 60_000;
/** A first start may build the app (minutes). */
const TEST_TIMEOUT_MS = 10 * 60_000 + SEND_DEADLINE_MS + COMPLETION_TIMEOUT_MS;
const { cleanUps } = setUpReliabilityTest();

type SentMail = TestMail & SendOutcome;

type Crash = {
  acceptedAtKill: number;
  killsServer: boolean;
  serverPidBefore: number | undefined;
  /** Whether the server still ran once the app was dead (before any kill of the server). */
  serverOutlivedApp: boolean;
  /** After the server's kill: postmaster.pid still there, naming no live process. */
  staleLockLeft: boolean;
  serverPidAfter: number | undefined;
  downtimeMs: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function buildMails(callbacks: CreatedCallback[]): TestMail[] {
  const runId = Date.now().toString(36);
  return Array.from({ length: TOTAL_MAILS }, (_, index) =>
    buildTestMail({
      id: `embedded-${String(index).padStart(4, "0")}-${runId}`,
      recipient: (callbacks[index % callbacks.length] as CreatedCallback).address,
    }),
  );
}

async function crashAndRestart(
  app: AppProcess,
  { killsServer }: { killsServer: boolean },
  acceptedAtKill: number,
): Promise<Crash> {
  const killedAt = Date.now();
  await app.kill();
  const lockAfterAppKill = readEmbeddedServerLock(app.dataDir);
  let staleLockLeft = false;
  if (killsServer) {
    await killServer(app.dataDir);
    const lock = readEmbeddedServerLock(app.dataDir);
    staleLockLeft = lock !== null && !lock.isAlive;
  }
  const restarted = await app.start();
  const crash: Crash = {
    acceptedAtKill,
    killsServer,
    serverPidBefore: lockAfterAppKill?.pid,
    serverOutlivedApp: lockAfterAppKill?.isAlive ?? false,
    staleLockLeft,
    serverPidAfter: readEmbeddedServerLock(app.dataDir)?.pid,
    downtimeMs: Date.now() - killedAt,
  };
  console.log(`zero-loss-embedded: ${JSON.stringify(crash)}; restarted as pid ${restarted.pid}`);
  return crash;
}

async function waitForDeliveries(database: Database, isDone: () => boolean): Promise<Record<string, number>> {
  const deadline = Date.now() + COMPLETION_TIMEOUT_MS;
  const countByStatus = async () => {
    const groups = await database.prisma.emailProcessing.groupBy({ by: ["status"], _count: { _all: true } });
    return Object.fromEntries(groups.map((group) => [group.status, group._count._all]));
  };
  let statuses = await countByStatus();
  while (((statuses.pending ?? 0) > 0 || !isDone()) && Date.now() < deadline) {
    await sleep(1_000);
    statuses = await countByStatus();
  }
  return statuses;
}

describe("zero loss on the zero-config default: the app and its embedded PostgreSQL killed mid-stream", () => {
  it(
    `delivers each of ${TOTAL_MAILS} mails answered 250 through a SIGKILL of the app and its server, then of the app alone, and stops the server on SIGTERM`,
    async () => {
      const testStartedAt = Date.now();
      const secrets = new Map<string, string>();
      const sink = await startWebhookSink({ secretsByName: () => secrets });
      cleanUps.push(() => sink.close());

      const { app, firstStart } = await startAppProcess(cleanUps, {
        extraEnvironment: { WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS) },
      });
      console.log(
        `zero-loss-embedded: app ready after ${firstStart.readyAfterMs} ms (includes the cluster's initialisation, and a build when the sources changed)`,
      );
      expect(app.readLog()).toContain("Embedded PostgreSQL started");

      const callbacks = await createAccountOnApp({ app, usernames: USERNAMES, sinkUrl: sink.url, secrets });
      const mails = buildMails(callbacks);
      const rawById = new Map<string, Buffer>();
      for (const mail of mails) rawById.set(mail.id, await buildRaw(mail.message));

      // The crashes, one at a time, each when its count of accepted mails is reached.
      let acceptedSoFar = 0;
      const crashes: Crash[] = [];
      let crashing: Promise<void> | undefined;
      const crashesDone: Promise<void>[] = [];
      const onAccepted = () => {
        acceptedSoFar += 1;
        const next = CRASHES[crashes.length];
        if (crashing || !next || acceptedSoFar < next.atAccepted) return;
        crashing = crashAndRestart(app, next, acceptedSoFar).then((crash) => {
          crashes.push(crash);
          crashing = undefined;
        });
        crashesDone.push(crashing);
      };

      const transport = createSmtpTransport(app.smtpPort, SMTP_SESSIONS);
      cleanUps.push(() => transport.close());

      const sent: SentMail[] = [];
      const deadline = Date.now() + SEND_DEADLINE_MS;
      const sendStartedAt = Date.now();
      await runPool(mails, SMTP_SESSIONS, async (mail) => {
        const outcome = await sendLikeAnMta(
          () => attemptSmtp(transport, { envelope: mail.message.envelope, raw: rawById.get(mail.id) as Buffer }),
          {
            deadline,
          },
        );
        if (outcome.outcome === "accepted") onAccepted();
        sent.push({ ...mail, ...outcome });
      });
      await Promise.all(crashesDone);
      const sendingMs = Date.now() - sendStartedAt;
      const accepted = sent.filter((mail) => mail.outcome === "accepted");
      const acceptedIds = accepted.map((mail) => mail.id).sort();

      // Read as an operator would, over a connection of the test's own (closed before the SIGTERM).
      const database = await openDatabase({ url: getEmbeddedDatabaseUrl(app.dataDir), poolSize: 2 });
      const delivered = () => new Set([...sink.deliveredIds().values()].flat().map((request) => request.mailId));
      const waitStartedAt = Date.now();
      const { statuses, processings } = await (async () => {
        try {
          const statuses = await waitForDeliveries(database, () => acceptedIds.every((id) => delivered().has(id)));
          const processings = await database.prisma.emailProcessing.findMany({
            select: { id: true, status: true, error: true, messageId: true },
          });
          return { statuses, processings };
        } finally {
          await database.close();
        }
      })();

      // SIGTERM: the app stops its roles, then its database server.
      const serverPids = listServerProcesses(app.dataDir);
      await app.stop();
      const lastExit = app.exits.at(-1);
      console.log(
        [
          `zero-loss-embedded summary (${Math.round((Date.now() - testStartedAt) / 1000)} s in all):`,
          `  ${accepted.length}/${TOTAL_MAILS} accepted in ${sendingMs} ms, ${sent.filter((mail) => mail.attempts > 1).length} after retries, ` +
            `${accepted.filter((mail) => mail.acceptedCount === 0).length} acknowledged as already stored`,
          `  crashes: ${crashes.map((crash) => `at ${crash.acceptedAtKill} (${crash.killsServer ? "app and server" : "app"}, ${crash.downtimeMs} ms down)`).join(", ")}`,
          `  deliveries final ${Date.now() - waitStartedAt} ms after sending: ${JSON.stringify(statuses)}; sink ${sink.requests.length} requests`,
          `  SIGTERM: exit ${JSON.stringify(lastExit)}, server processes before ${serverPids.join(" ")}`,
        ].join("\n"),
      );

      // Every mail was accepted in the end, and the app exited only when killed.
      expect(
        sent.filter((mail) => mail.outcome !== "accepted").map((mail) => `${mail.id}: ${mail.outcome} ${mail.answer}`),
      ).toEqual([]);
      expect(
        app.exits.filter((exit) => !exit.wasExpected),
        `unexpected exits; log:\n${tail(app.readLog(), 3_000)}`,
      ).toEqual([]);

      // The first crash left a stale postmaster.pid and the next start ran a new server; the
      // second left the server running and the next start used it.
      expect(crashes.map((crash) => crash.killsServer)).toEqual(CRASHES.map((crash) => crash.killsServer));
      const [powerCut, appCrash] = crashes as [Crash, Crash];
      expect(powerCut.serverOutlivedApp).toBe(true);
      expect(powerCut.staleLockLeft).toBe(true);
      expect(powerCut.serverPidAfter).not.toBe(powerCut.serverPidBefore);
      expect(appCrash.serverOutlivedApp).toBe(true);
      expect(appCrash.serverPidAfter).toBe(appCrash.serverPidBefore);
      expect(app.readLog()).toContain("Embedded PostgreSQL already running");

      // Every accepted mail reached the webhook with a valid signature, and was recorded once as a success.
      expect(sink.requests.filter((request) => request.signatureError !== null)).toEqual([]);
      const deliveredIds = delivered();
      expect(
        acceptedIds.filter((id) => !deliveredIds.has(id)),
        "accepted mails that never reached the webhook",
      ).toEqual([]);
      const mailIds = processings.map(
        (processing) => findMailIdOfMessageId(processing.messageId) ?? `(unknown ${processing.messageId})`,
      );
      expect(mailIds.sort(), "one processing per accepted mail").toEqual(acceptedIds);
      expect(
        processings
          .filter((processing) => processing.status !== "success")
          .map((processing) => `${processing.id} ${processing.status} ${processing.error}`),
      ).toEqual([]);

      // SIGTERM stopped the server cleanly before the app exited.
      expect(serverPids.length).toBeGreaterThan(0);
      expect(lastExit).toMatchObject({ code: 0, signal: null });
      expect(app.readLog()).toContain("Embedded PostgreSQL stopped");
      expect(readEmbeddedServerLock(app.dataDir), "postmaster.pid after SIGTERM").toBeNull();
      expect(findLiveProcesses(serverPids), "server processes left after SIGTERM").toEqual([]);
      expect(findProcessesNamingCluster(app.dataDir)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
