// Group commit of accepted mail under a crash (docs/architecture.md: Group commit): 24 SMTP sessions
// send at once to the real app, started as `npm start` starts it, so that their mails are written in
// groups; the app is killed with SIGKILL mid-stream (groups being gathered and written) and started
// again. A session hears 250 only after its mail's group committed, so every mail answered 250 must
// reach the webhook; a mail whose group committed but whose 250 never left is sent again by its
// sender and recognised as a copy (accepted for 0), so none is recorded or delivered twice.
//
// - The sink answers 503 until the app has been started again, so no delivery succeeds before the
//   kill: a webhook request answered 200 but not yet recorded by the killed process would be sent
//   again by design (at least once, docs/webhooks.md), and this test is about acceptance.
// - Deliveries the killed process had claimed wait for their lease (WEBHOOK_TIMEOUT_MS 5 s + 60 s).
import { describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/modules/db/db";
import { createTestDatabaseUrl } from "@/tests/support/test-database";
import { type CreatedCallback, createAccountOnApp } from "./support/app-account";
import { startAppProcess, tail } from "./support/app-process";
import { setUpReliabilityTest } from "./support/reliability-setup";
import { attemptSmtp, createSmtpTransport, type SendOutcome, sendLikeAnMta } from "./support/retrying-senders";
import { buildRaw, buildTestMail, findMailIdOfMessageId, runPool, type TestMail } from "./support/test-mails";
import { startWebhookSink } from "./support/webhook-sink";

const TOTAL_MAILS = 1200;
const SMTP_SESSIONS = 24;
/** The app is killed (SIGKILL) when this many mails have been accepted (40 %). */
const KILL_AT_ACCEPTED = Math.round(TOTAL_MAILS * 0.4);
const USERNAMES = ["group-a", "group-b", "group-c"];
const WEBHOOK_TIMEOUT_MS = 5_000;
/** A window wider than the default, so that more groups are being gathered or written at the kill. */
const ACCEPT_GROUP_WINDOW_MS = 5;
const SEND_DEADLINE_MS = 10 * 60_000;
const COMPLETION_TIMEOUT_MS = 8 * 60_000;
const TEST_TIMEOUT_MS = 10 * 60_000 + SEND_DEADLINE_MS + COMPLETION_TIMEOUT_MS;
const { cleanUps } = setUpReliabilityTest();

type SentMail = TestMail & SendOutcome;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function buildMails(callbacks: CreatedCallback[]): TestMail[] {
  const runId = Date.now().toString(36);
  return Array.from({ length: TOTAL_MAILS }, (_, index) =>
    buildTestMail({
      id: `group-${String(index).padStart(4, "0")}-${runId}`,
      recipient: (callbacks[index % callbacks.length] as CreatedCallback).address,
    }),
  );
}

const countPending = (database: Database) => database.prisma.emailProcessing.count({ where: { status: "pending" } });

describe("group commit: concurrent SMTP sessions and a SIGKILL", () => {
  it(
    `delivers each of ${TOTAL_MAILS} mails answered 250 over ${SMTP_SESSIONS} sessions (app killed at ${KILL_AT_ACCEPTED}), none recorded or delivered twice`,
    async () => {
      const { url, drop } = await createTestDatabaseUrl();
      cleanUps.push(drop);
      let isRestarted = false;
      const secrets = new Map<string, string>();
      const sink = await startWebhookSink({ secretsByName: () => secrets, answer: () => (isRestarted ? 200 : 503) });
      cleanUps.push(() => sink.close());

      const { app, firstStart } = await startAppProcess(cleanUps, {
        databaseUrl: url,
        extraEnvironment: {
          WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
          SMTP_MAX_CLIENTS_PER_IP: "100",
          ACCEPT_GROUP_WINDOW_MS: String(ACCEPT_GROUP_WINDOW_MS),
        },
      });
      console.log(`group-commit: app ready after ${firstStart.readyAfterMs} ms`);
      const callbacks = await createAccountOnApp({ app, usernames: USERNAMES, sinkUrl: sink.url, secrets });
      const database = await openDatabase({ url, poolSize: 2 });
      cleanUps.push(() => database.close());

      const mails = buildMails(callbacks);
      const rawById = new Map<string, Buffer>();
      for (const mail of mails) rawById.set(mail.id, await buildRaw(mail.message));

      let acceptedSoFar = 0;
      let crash: Promise<void> | undefined;
      let acceptedAtKill = 0;
      const crashAndRestart = async () => {
        acceptedAtKill = acceptedSoFar;
        await app.kill();
        await app.start();
        isRestarted = true;
        console.log(`group-commit: killed at ${acceptedAtKill} accepted, restarted`);
      };

      const transport = createSmtpTransport(app.smtpPort, SMTP_SESSIONS);
      cleanUps.push(() => transport.close());
      const sent: SentMail[] = [];
      const deadline = Date.now() + SEND_DEADLINE_MS;
      await runPool(mails, SMTP_SESSIONS, async (mail) => {
        const raw = rawById.get(mail.id) as Buffer;
        const outcome = await sendLikeAnMta(() => attemptSmtp(transport, { envelope: mail.message.envelope, raw }), { deadline });
        if (outcome.outcome === "accepted") {
          acceptedSoFar += 1;
          if (acceptedSoFar >= KILL_AT_ACCEPTED && !crash) crash = crashAndRestart();
        }
        sent.push({ ...mail, ...outcome });
      });
      await crash;
      const accepted = sent.filter((mail) => mail.outcome === "accepted");
      console.log(
        `group-commit: ${accepted.length}/${TOTAL_MAILS} accepted; ${sent.filter((mail) => mail.attempts > 1).length} needed retries; ` +
          `${accepted.filter((mail) => mail.acceptedCount === 0).length} acknowledged as already stored`,
      );

      const waitStartedAt = Date.now();
      while ((await countPending(database)) > 0 && Date.now() - waitStartedAt < COMPLETION_TIMEOUT_MS) await sleep(1_000);
      const processings = await database.prisma.emailProcessing.findMany({ select: { id: true, status: true, messageId: true } });
      const delivered = sink.deliveredIds();
      console.log(
        `group-commit: all final after ${Date.now() - waitStartedAt} ms; ${processings.length} processings, ` +
          `${sink.countAnswered(503)} requests answered 503, ${delivered.size} webhook-ids delivered`,
      );

      expect(
        sent.filter((mail) => mail.outcome !== "accepted").map((mail) => `${mail.id}: ${mail.outcome} ${mail.answer}`),
        "mails never accepted",
      ).toEqual([]);
      expect(
        app.exits.filter((exit) => !exit.wasExpected),
        `unexpected exits; log:\n${tail(app.readLog(), 3_000)}`,
      ).toEqual([]);
      expect(sink.requests.filter((request) => request.signatureError !== null)).toEqual([]);

      // Every mail answered 250 reached the webhook.
      const mailIdsDelivered = new Set([...delivered.values()].flat().map((request) => request.mailId));
      expect(
        accepted.map((mail) => mail.id).filter((id) => !mailIdsDelivered.has(id)),
        "mails answered 250 that never reached the webhook",
      ).toEqual([]);
      // Recorded once per mail, and delivered once per webhook-id.
      const processingsByMail = new Map<string, string[]>();
      for (const processing of processings) {
        const mailId = findMailIdOfMessageId(processing.messageId) ?? `(unknown ${processing.messageId})`;
        processingsByMail.set(mailId, [...(processingsByMail.get(mailId) ?? []), processing.id]);
      }
      expect(
        [...processingsByMail].filter(([, ids]) => ids.length !== 1),
        "mails recorded more than once",
      ).toEqual([]);
      expect([...processingsByMail.keys()].sort()).toEqual(accepted.map((mail) => mail.id).sort());
      expect(
        processings.filter((processing) => processing.status !== "success").map(({ id, status }) => `${id} ${status}`),
      ).toEqual([]);
      expect(
        [...delivered].filter(([, requests]) => requests.length !== 1).map(([id, requests]) => `${id}: ${requests.length}`),
        "webhook-ids delivered more than once",
      ).toEqual([]);
      expect(delivered.size).toBe(processings.length);
      expect(acceptedAtKill).toBeGreaterThanOrEqual(KILL_AT_ACCEPTED);
    },
    TEST_TIMEOUT_MS,
  );
});
