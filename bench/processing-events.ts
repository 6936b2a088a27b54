// What the live events cost on the relay's write path (docs/architecture.md: Live events): every
// processing row written and every delivery outcome fires a trigger that appends to
// processing_event and sends a NOTIFY. Measured side by side on one fresh database of the embedded
// default: each mail is the relay's two writes (the row recorded pending, then its outcome), with the
// triggers enabled and disabled in alternating rounds. Prints writes/s and the median ratio.
// Goal: the triggers keep ≥ 0.8 of the write throughput without them.
import { performance } from "node:perf_hooks";
import { createId } from "@/modules/shared/ids";
import { seedEmailCallback, seedUser } from "@/tests/support/seed";
import { openBenchDatabase, startBenchServer } from "./bench-database";

const MAILS = Number(process.env.BENCH_EVENTS_MAILS ?? 2000);
const ROUNDS = Number(process.env.BENCH_EVENTS_ROUNDS ?? 5);
const CONCURRENCY = 8;
const GOAL_RATIO = 0.8;

const INSERT_PENDING = `INSERT INTO email_processing
  (id, "emailCallbackId", "fromAddress", subject, recipient, status, "attemptCount", "nextAttemptAt", "createdAt", "updatedAt")
  VALUES ($1, $2, 'bob@example.org', 'Bench', 'bench@hookmail.test', 'pending', 0, now(), now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')`;
const RECORD_SUCCESS = `UPDATE email_processing
  SET status = 'success', "attemptCount" = 1, "webhookResponseStatusCode" = 200, "nextAttemptAt" = NULL, "updatedAt" = now()
  WHERE id = $1`;
const SET_TRIGGERS = (enabled: boolean) => `ALTER TABLE email_processing ${enabled ? "ENABLE" : "DISABLE"} TRIGGER USER`;

const server = await startBenchServer("embedded");
const database = await openBenchDatabase(server.adminUrl, { poolSize: CONCURRENCY });
try {
  const user = await seedUser(database);
  const { id: emailCallbackId } = await seedEmailCallback(database, { userId: user.id });

  async function writeMails(): Promise<number> {
    let next = 0;
    const startedAt = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < MAILS) {
          next += 1;
          const id = createId("emailProcessing");
          await database.executor.query(INSERT_PENDING, [id, emailCallbackId]);
          await database.executor.query(RECORD_SUCCESS, [id]);
        }
      }),
    );
    return MAILS / ((performance.now() - startedAt) / 1000);
  }

  await writeMails(); // warm-up
  const ratios: number[] = [];
  const rates = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which side goes first, so that neither always runs on a warmer cache.
    const order = round % 2 === 0 ? ([true, false] as const) : ([false, true] as const);
    const rate: Record<string, number> = {};
    for (const enabled of order) {
      await database.executor.query(SET_TRIGGERS(enabled));
      rate[enabled ? "on" : "off"] = await writeMails();
    }
    rates.on.push(rate.on!);
    rates.off.push(rate.off!);
    ratios.push(rate.on! / rate.off!);
    console.log(`round ${round + 1}: events on ${rate.on!.toFixed(0)} mails/s, off ${rate.off!.toFixed(0)} mails/s`);
  }
  await database.executor.query(SET_TRIGGERS(true));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const ratio = median(ratios);
  console.log(
    `\nProcessing writes with live events (2 writes a mail, ${CONCURRENCY} connections, ${MAILS} mails × ${ROUNDS} rounds, embedded server):`,
  );
  console.log(`  events on  ${median(rates.on).toFixed(0)} mails/s (median)`);
  console.log(`  events off ${median(rates.off).toFixed(0)} mails/s (median)`);
  console.log(
    `  ratio ${ratio.toFixed(2)} (median of the rounds) | goal ≥ ${GOAL_RATIO}: ${ratio >= GOAL_RATIO ? "met" : "NOT met"}`,
  );
} finally {
  await database.close();
  await server.stop();
}
