// Zero loss: 2,000 mails, 1,000 over SMTP and 1,000 over POST /api/inbound/raw, to the
// real app started as `npm start` starts it, while the webhook answers 503 for the first half of
// the run and the app is killed with SIGKILL once mid-run and started again. Every accepted mail
// must reach the webhook (each webhook-id at least once) and be recorded exactly once as a success.
//
// - "First half of the run" is counted in mails: the sink answers 503 while fewer than 1,000 of the
//   2,000 mails have been accepted, 200 from then on. Mails accepted early are refused at their first
//   attempt and delivered by a retry (about 30 s later, or 2 min after a second refusal).
// - The kill comes when 800 mails (40 %) have been accepted; the senders keep going and, like real
//   MTAs, retry what was refused temporarily or got no answer. A mail counts as accepted only once
//   the server answered 250 / 2xx. A retry of a mail the killed process had stored but not yet
//   acknowledged is the same bytes and Message-ID, which the app recognises (accepted for 0).
// - Attempts in flight at the kill are leased for WEBHOOK_TIMEOUT_MS (5 s here) + 60 s before the
//   restarted worker takes them over, so the test waits (polling the database) for every
//   processing to be final.
// The app runs on a fresh migrated database on the test run's server (DATABASE_URL's, or the
// embedded one); zero-loss-embedded.reliability.test.ts runs the zero-config default itself.
import { describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/modules/db/db";
import { createTestDatabaseUrl } from "@/tests/support/test-database";
import { type CreatedCallback, createAccountOnApp } from "./support/app-account";
import { startAppProcess, tail } from "./support/app-process";
import { setUpReliabilityTest } from "./support/reliability-setup";
import { attemptRawInbound, attemptSmtp, createSmtpTransport, type SendOutcome, sendLikeAnMta } from "./support/retrying-senders";
import { buildRaw, buildTestMail, ENVELOPE_FROM, findMailIdOfMessageId, runPool, type TestMail } from "./support/test-mails";
import { startWebhookSink } from "./support/webhook-sink";

const MAILS_PER_ROUTE = 1000;
const TOTAL_MAILS = MAILS_PER_ROUTE * 2;
/** The sink answers 503 until this many mails have been accepted (half of them), then 200. */
const REFUSE_UNTIL_ACCEPTED = TOTAL_MAILS / 2;
/** The app is killed (SIGKILL) when this many mails have been accepted (40 %). */
const KILL_AT_ACCEPTED = Math.round(TOTAL_MAILS * 0.4);
const SMTP_SESSIONS = 4;
const HTTP_CONCURRENCY = 4;
const USERNAMES = ["zero-loss-a", "zero-loss-b", "zero-loss-c", "zero-loss-d"];
const WEBHOOK_TIMEOUT_MS = 5_000;
/** How long a sender keeps retrying one mail before giving up (the test then fails: that mail was never accepted). */
const SEND_DEADLINE_MS = 10 * 60_000;
const COMPLETION_TIMEOUT_MS = 8 * 60_000;
/** A first start may build the app (minutes), then the sending, the crash and the retries. */
const TEST_TIMEOUT_MS = 10 * 60_000 + SEND_DEADLINE_MS + COMPLETION_TIMEOUT_MS;
const { cleanUps } = setUpReliabilityTest();

type ZeroLossMail = TestMail & { route: "smtp" | "http" };
type SentMail = ZeroLossMail & SendOutcome;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function buildMails(callbacks: CreatedCallback[]): ZeroLossMail[] {
  const runId = Date.now().toString(36);
  return Array.from({ length: TOTAL_MAILS }, (_, index) => {
    const route = index < MAILS_PER_ROUTE ? "smtp" : "http";
    const id = `${route}-${String(index).padStart(4, "0")}-${runId}`;
    const recipient = (callbacks[index % callbacks.length] as CreatedCallback).address;
    return { ...buildTestMail({ id, recipient }), route };
  });
}

async function countByStatus(database: Database): Promise<Record<string, number>> {
  const groups = await database.prisma.emailProcessing.groupBy({ by: ["status"], _count: { _all: true } });
  return Object.fromEntries(groups.map((group) => [group.status, group._count._all]));
}

describe("zero loss: SMTP and HTTP mail through a refusing webhook and a SIGKILL", () => {
  it(
    `delivers each of ${TOTAL_MAILS} accepted mails (webhook 503 for the first half, app killed at ${KILL_AT_ACCEPTED}) and records each exactly once as a success`,
    async () => {
      const testStartedAt = Date.now();
      const { url, drop } = await createTestDatabaseUrl();
      cleanUps.push(drop);

      let acceptedSoFar = 0;
      const secrets = new Map<string, string>();
      const sink = await startWebhookSink({
        secretsByName: () => secrets,
        answer: () => (acceptedSoFar < REFUSE_UNTIL_ACCEPTED ? 503 : 200),
      });
      cleanUps.push(() => sink.close());

      const { app, firstStart } = await startAppProcess(cleanUps, {
        databaseUrl: url,
        extraEnvironment: { WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS) },
      });
      console.log(`zero-loss: app ready after ${firstStart.readyAfterMs} ms (includes a build when the sources changed)`);

      const callbacks = await createAccountOnApp({ app, usernames: USERNAMES, sinkUrl: sink.url, secrets });

      const database = await openDatabase({ url, poolSize: 2 });
      cleanUps.push(() => database.close());

      const mails = buildMails(callbacks);
      const rawById = new Map<string, Buffer>();
      for (const mail of mails) rawById.set(mail.id, await buildRaw(mail.message));

      // The crash: SIGKILL at KILL_AT_ACCEPTED accepted mails, then a start on the same ports and database.
      let crash: Promise<void> | undefined;
      let downtimeMs = 0;
      let acceptedAtKill = 0;
      let leasedAtKill = 0;
      const crashAndRestart = async () => {
        acceptedAtKill = acceptedSoFar;
        const killedAt = Date.now();
        await app.kill();
        // Attempts the dead process had claimed: another worker may take them only once their lease ends.
        leasedAtKill = await database.prisma.delivery.count({
          where: { status: "pending", lockedUntil: { gt: new Date() } },
        });
        const restarted = await app.start();
        downtimeMs = Date.now() - killedAt;
        console.log(
          `zero-loss: killed at ${acceptedAtKill} accepted (${leasedAtKill} deliveries leased by it); restarted as pid ${restarted.pid}, ${downtimeMs} ms without the app`,
        );
      };
      const onAccepted = () => {
        acceptedSoFar += 1;
        if (acceptedSoFar >= KILL_AT_ACCEPTED && !crash) crash = crashAndRestart();
      };

      const transport = createSmtpTransport(app.smtpPort, SMTP_SESSIONS);
      cleanUps.push(() => transport.close());

      const sent: SentMail[] = [];
      const deadline = Date.now() + SEND_DEADLINE_MS;
      const sendStartedAt = Date.now();
      const send = async (mail: ZeroLossMail) => {
        const outcome = await sendLikeAnMta(
          () =>
            mail.route === "smtp"
              ? attemptSmtp(transport, { envelope: mail.message.envelope, raw: rawById.get(mail.id) as Buffer })
              : attemptRawInbound({
                  baseUrl: app.baseUrl,
                  inboundSecret: app.inboundSecret,
                  raw: rawById.get(mail.id) as Buffer,
                  envelopeFrom: ENVELOPE_FROM,
                  envelopeTo: mail.recipient,
                  timeoutMs: 30_000,
                }),
          { deadline },
        );
        if (outcome.outcome === "accepted") onAccepted();
        sent.push({ ...mail, ...outcome });
      };
      await Promise.all([
        runPool(
          mails.filter((mail) => mail.route === "smtp"),
          SMTP_SESSIONS,
          send,
        ),
        runPool(
          mails.filter((mail) => mail.route === "http"),
          HTTP_CONCURRENCY,
          send,
        ),
      ]);
      await crash;
      const sendingMs = Date.now() - sendStartedAt;
      const accepted = sent.filter((mail) => mail.outcome === "accepted");
      console.log(
        `zero-loss: ${accepted.length}/${TOTAL_MAILS} accepted in ${sendingMs} ms; ` +
          `${sent.filter((mail) => mail.attempts > 1).length} needed retries (${sent.reduce((sum, mail) => sum + mail.attempts - 1, 0)} retries); ` +
          `${accepted.filter((mail) => mail.acceptedCount === 0).length} acknowledged as already stored`,
      );

      // Wait until no processing is pending (retries ~30 s / 2 min later, leases of the killed process after 65 s).
      const waitStartedAt = Date.now();
      let statuses = await countByStatus(database);
      let lastProgressAt = Date.now();
      while ((statuses.pending ?? 0) > 0 && Date.now() - waitStartedAt < COMPLETION_TIMEOUT_MS) {
        await sleep(1_000);
        statuses = await countByStatus(database);
        if (Date.now() - lastProgressAt > 20_000) {
          lastProgressAt = Date.now();
          console.log(
            `zero-loss: waiting for deliveries: ${JSON.stringify(statuses)}, sink: ${sink.deliveredIds().size} delivered ids`,
          );
        }
      }
      const drainMs = Date.now() - waitStartedAt;

      const processings = await database.prisma.emailProcessing.findMany({
        select: {
          id: true,
          status: true,
          error: true,
          messageId: true,
          attemptCount: true,
          deliveryAttempts: { select: { statusCode: true } },
        },
      });
      const delivered = sink.deliveredIds();
      const deliveredRequests = [...delivered.values()].reduce((sum, requests) => sum + requests.length, 0);
      const summary = [
        `zero-loss summary (${Math.round((Date.now() - testStartedAt) / 1000)} s in all):`,
        `  mails: ${TOTAL_MAILS} sent (${MAILS_PER_ROUTE} SMTP, ${MAILS_PER_ROUTE} HTTP), ${accepted.length} accepted, ` +
          `${sent.filter((mail) => mail.outcome === "rejected").length} rejected, ${sent.filter((mail) => mail.outcome === "gave-up").length} given up`,
        `  sending: ${sendingMs} ms; app killed at ${acceptedAtKill} accepted with ${leasedAtKill} deliveries leased, ${downtimeMs} ms until it answered again; ` +
          `first start ${firstStart.readyAfterMs} ms`,
        `  delivery: all final ${drainMs} ms after the last mail was accepted; processings ${JSON.stringify(statuses)}`,
        `  sink: ${sink.requests.length} requests, ${sink.countAnswered(503)} answered 503, ${deliveredRequests} answered 200 ` +
          `for ${delivered.size} webhook-ids (${deliveredRequests - delivered.size} duplicates delivered), ` +
          `${sink.requests.filter((request) => request.signatureError !== null).length} bad signatures`,
      ].join("\n");
      console.log(summary);

      // Every mail was accepted in the end: clients retried through the refusals and the crash.
      expect(
        sent.filter((mail) => mail.outcome !== "accepted").map((mail) => `${mail.id}: ${mail.outcome} ${mail.answer}`),
        "mails never accepted",
      ).toEqual([]);
      // The app never exited on its own: the one exit is the SIGKILL.
      expect(
        app.exits.filter((exit) => !exit.wasExpected),
        `unexpected exits; log:\n${tail(app.readLog(), 3_000)}`,
      ).toEqual([]);
      expect(app.exits).toHaveLength(1);
      expect(app.isRunning()).toBe(true);

      // Every signature verified, and every delivered payload is the processing it claims to be.
      expect(sink.requests.filter((request) => request.signatureError !== null)).toEqual([]);
      expect(sink.requests.filter((request) => request.payloadId !== request.webhookId)).toEqual([]);

      // Recorded exactly once: one processing per accepted mail, each a success, none pending or failed.
      const processingsByMail = new Map<string, string[]>();
      for (const processing of processings) {
        const mailId = findMailIdOfMessageId(processing.messageId) ?? `(unknown Message-ID ${processing.messageId})`;
        processingsByMail.set(mailId, [...(processingsByMail.get(mailId) ?? []), processing.id]);
      }
      const acceptedIds = accepted.map((mail) => mail.id).sort();
      expect([...processingsByMail.keys()].sort(), "mails with a processing = accepted mails").toEqual(acceptedIds);
      expect(
        [...processingsByMail].filter(([, ids]) => ids.length !== 1),
        "mails recorded more than once",
      ).toEqual([]);
      expect(
        processings
          .filter((processing) => processing.status !== "success")
          .map((processing) => `${processing.id} ${processing.status} ${processing.error}`),
        "processings not delivered",
      ).toEqual([]);
      // One recorded 2xx attempt per processing: a delivery the killed process made but never recorded is retried, and only the retry is recorded.
      expect(
        processings
          .filter(
            (processing) =>
              processing.deliveryAttempts.filter(({ statusCode }) => statusCode !== null && statusCode >= 200 && statusCode < 300)
                .length !== 1,
          )
          .map((processing) => processing.id),
        "processings without exactly one successful attempt",
      ).toEqual([]);

      // Every accepted mail reached the sink, through its processing's webhook-id, at least once.
      const mailIdsDelivered = new Set([...delivered.values()].flat().map((request) => request.mailId));
      expect(
        acceptedIds.filter((id) => !mailIdsDelivered.has(id)),
        "accepted mails that never reached the webhook",
      ).toEqual([]);
      expect(
        processings.filter((processing) => !delivered.has(processing.id)).map((processing) => processing.id),
        "webhook-ids never delivered",
      ).toEqual([]);
      for (const processing of processings) {
        const requests = delivered.get(processing.id) ?? [];
        expect(
          requests.every((request) => request.mailId === findMailIdOfMessageId(processing.messageId)),
          `webhook-id ${processing.id} carried another mail`,
        ).toBe(true);
      }
      // The refusals happened: mails of the first half were refused at least once and delivered by a retry.
      expect(sink.countAnswered(503)).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );
});
