// What the live events cost on the relay's write path (docs/architecture.md: Live events): every
// processing row written and every delivery outcome fires a trigger that looks up whether a stream
// follows the address, and if so appends to processing_event and sends a NOTIFY. Measured side by
// side on one fresh database of the embedded default: each mail is the relay's two writes (the row
// recorded pending, then its outcome), in rounds that rotate three sides: triggers disabled, enabled
// for an address nobody follows (the common case), and enabled for an address a stream follows
// (every write recorded and NOTIFYed). Prints writes/s and the median ratios.
// Goal: for an address nobody follows, the triggers keep ≥ 0.8 of the write throughput without them.
import { seedEmailCallback, seedUser } from "@/tests/support/seed";
import { openBenchDatabase, startBenchServer } from "./bench-database";
import { median, writeRelayMails } from "./write-path";

const MAILS = Number(process.env.BENCH_EVENTS_MAILS ?? 2000);
const ROUNDS = Number(process.env.BENCH_EVENTS_ROUNDS ?? 5);
const CONCURRENCY = 8;
const GOAL_RATIO = 0.8;

const SET_TRIGGERS = (enabled: boolean) => `ALTER TABLE email_processing ${enabled ? "ENABLE" : "DISABLE"} TRIGGER USER`;

const server = await startBenchServer("embedded");
const database = await openBenchDatabase(server.adminUrl, { poolSize: CONCURRENCY });
try {
  const user = await seedUser(database);
  const { id: emailCallbackId } = await seedEmailCallback(database, { userId: user.id });

  const writeMails = () =>
    writeRelayMails({ executor: database.executor, emailCallbackId, mails: MAILS, concurrency: CONCURRENCY });

  const setFollowed = (isFollowed: boolean) =>
    database.executor.query(
      isFollowed
        ? `INSERT INTO processing_event_follower ("emailCallbackId", "streamedUntil", "followedUntil")
           VALUES ($1, now() + interval '1 day', now() + interval '1 day')`
        : `DELETE FROM processing_event_follower WHERE "emailCallbackId" = $1`,
      [emailCallbackId],
    );
  const SIDES = {
    off: async () => {
      await database.executor.query(SET_TRIGGERS(false));
      await setFollowed(false);
    },
    unfollowed: async () => {
      await database.executor.query(SET_TRIGGERS(true));
      await setFollowed(false);
    },
    streamed: async () => {
      await database.executor.query(SET_TRIGGERS(true));
      await setFollowed(true);
    },
  } as const;
  type Side = keyof typeof SIDES;
  const order: Side[] = ["off", "unfollowed", "streamed"];

  await writeMails(); // warm-up
  const rates: Record<Side, number[]> = { off: [], unfollowed: [], streamed: [] };
  const ratios = { unfollowed: [] as number[], streamed: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    // Rotate which side goes first, so that none always runs on a warmer cache.
    const sides = [...order.slice(round % 3), ...order.slice(0, round % 3)];
    const rate = {} as Record<Side, number>;
    for (const side of sides) {
      await SIDES[side]();
      rate[side] = await writeMails();
      rates[side].push(rate[side]);
    }
    ratios.unfollowed.push(rate.unfollowed / rate.off);
    ratios.streamed.push(rate.streamed / rate.off);
    console.log(
      `round ${round + 1}: off ${rate.off.toFixed(0)}, unfollowed ${rate.unfollowed.toFixed(0)}, streamed ${rate.streamed.toFixed(0)} mails/s`,
    );
  }
  await SIDES.unfollowed();
  const ratio = median(ratios.unfollowed);
  console.log(
    `\nProcessing writes with live events (2 writes a mail, ${CONCURRENCY} connections, ${MAILS} mails × ${ROUNDS} rounds, embedded server):`,
  );
  for (const side of order) console.log(`  ${side.padEnd(10)} ${median(rates[side]).toFixed(0)} mails/s (median)`);
  console.log(
    `  unfollowed/off ${ratio.toFixed(2)} (median of the rounds) | goal ≥ ${GOAL_RATIO}: ${ratio >= GOAL_RATIO ? "met" : "NOT met"}`,
  );
  console.log(
    `  streamed/off   ${median(ratios.streamed).toFixed(2)} (median of the rounds; no goal: the cost of a followed address)`,
  );
} finally {
  await database.close();
  await server.stop();
}
