// What the inbox's search index costs on the relay's write path (docs/architecture.md: The inbox):
// the trigram index on the sender and the subject (migration 20261126130000_inbox_search_trigrams)
// is updated by every mail recorded. Measured side by side on one fresh database of the embedded
// default: each mail is the relay's two writes (bench/write-path.ts), in rounds that alternate the
// index present and dropped (rebuilt from its own definition before each "present" side).
// Prints writes/s and the median ratio. Goal: the index keeps ≥ 0.8 of the write throughput.
import { seedEmailCallback, seedUser } from "@/tests/support/seed";
import { openBenchDatabase, startBenchServer } from "./bench-database";
import { median, writeRelayMails } from "./write-path";

const MAILS = Number(process.env.BENCH_SEARCH_MAILS ?? 2000);
const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 5);
const CONCURRENCY = 8;
const GOAL_RATIO = 0.8;
const INDEX_NAME = "email_processing_search_trgm_idx";

const server = await startBenchServer("embedded");
const database = await openBenchDatabase(server.adminUrl, { poolSize: CONCURRENCY });
try {
  const [index] = await database.executor.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE indexname = $1`, [
    INDEX_NAME,
  ]);
  if (!index) throw new Error(`${INDEX_NAME} is missing: is pg_trgm available on this server?`);
  const user = await seedUser(database);
  const { id: emailCallbackId } = await seedEmailCallback(database, { userId: user.id });
  const writeMails = () =>
    writeRelayMails({ executor: database.executor, emailCallbackId, mails: MAILS, concurrency: CONCURRENCY });
  const setIndex = async (isPresent: boolean) => {
    await database.executor.query(`DROP INDEX IF EXISTS "${INDEX_NAME}"`);
    if (isPresent) await database.executor.query(index.indexdef);
  };

  await writeMails(); // warm-up
  const rates = { with: [] as number[], without: [] as number[] };
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which side goes first, so that neither always runs on a warmer cache.
    const order = round % 2 === 0 ? ([true, false] as const) : ([false, true] as const);
    const rate = { with: 0, without: 0 };
    for (const isPresent of order) {
      await setIndex(isPresent);
      rate[isPresent ? "with" : "without"] = await writeMails();
    }
    rates.with.push(rate.with);
    rates.without.push(rate.without);
    ratios.push(rate.with / rate.without);
    console.log(`round ${round + 1}: with the index ${rate.with.toFixed(0)} mails/s, without ${rate.without.toFixed(0)} mails/s`);
  }
  await setIndex(true);
  const ratio = median(ratios);
  console.log(
    `\nProcessing writes with the inbox search index (2 writes a mail, ${CONCURRENCY} connections, ${MAILS} mails × ${ROUNDS} rounds, embedded server):`,
  );
  console.log(`  with the index    ${median(rates.with).toFixed(0)} mails/s (median)`);
  console.log(`  without the index ${median(rates.without).toFixed(0)} mails/s (median)`);
  console.log(
    `  ratio ${ratio.toFixed(2)} (median of the rounds) | goal ≥ ${GOAL_RATIO}: ${ratio >= GOAL_RATIO ? "met" : "NOT met"}`,
  );
} finally {
  await database.close();
  await server.stop();
}
