// Inbox at scale: 1,000,000 processings across 1,000 callbacks in PostgreSQL, one of them
// heavy (200,000 rows over 90 days, a pro user), the others skewed over 30 days; then the last hours
// of mail of the two measured inboxes, written one statement per mail as the pipeline does. Measures
// GET /api/email-callbacks/:id/processings through its route handler (API key → caller → callback →
// page and count), one request at a time, for the first, a middle and the last page of a typical
// callback and of the heavy one, and prints p50/p99 beside the goal (p50 ≤ 20 ms). Prints
// EXPLAIN (ANALYZE, BUFFERS) of the SQL the route ran for the heavy callback's last page (captured
// from Prisma's query events). Then the filtered first pages of the heavy inbox (a status, a search
// that many rows match, one that few match, one that none does), whose count is over the rows
// themselves, beside the same goal. Runs on a throwaway database, dropped at the end.
//   DATABASE_URL (its server; without it an embedded server in a throwaway DATA_DIR), BENCH_INBOX_ROWS (1000000), BENCH_INBOX_CALLBACKS (1000),
//   BENCH_INBOX_HEAVY_ROWS (200000), BENCH_INBOX_REQUESTS (100 per page), BENCH_INBOX_PAGE_SIZE (15),
//   BENCH_INBOX_VACUUM (1: VACUUM ANALYZE after loading, the state autovacuum keeps a table in;
//   0: ANALYZE only, so index-only scans still visit the heap).

import os from "node:os";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { GET as inboxGet } from "@/app/api/email-callbacks/[emailCallbackId]/processings/route";
import { generateApiKeyToken, getApiKeyDisplayPrefix, hashApiKeyToken } from "@/modules/api-keys/api-keys.models";
import { loadConfig } from "@/modules/config/config";
import { type Database, migrateDatabase, openDatabase } from "@/modules/db/db";
import { PrismaClient } from "@/modules/db/generated/client";
import type { SqlExecutor } from "@/modules/db/sql-executor";
import { PLAN_ID } from "@/modules/plans/plans.constants";
import { createServices, setServices } from "@/modules/server/services";
import { silentLogger } from "@/modules/shared/logging/logger";
import { createDatabaseOn, findDatabaseUrlServer, startEmbeddedBenchServer } from "./bench-database";
import { now, percentile } from "./common";

const ROWS = Number(process.env.BENCH_INBOX_ROWS ?? 1_000_000);
const CALLBACKS = Number(process.env.BENCH_INBOX_CALLBACKS ?? 1_000);
const HEAVY_ROWS = Number(process.env.BENCH_INBOX_HEAVY_ROWS ?? 200_000);
const REQUESTS = Number(process.env.BENCH_INBOX_REQUESTS ?? 100);
const PAGE_SIZE = Number(process.env.BENCH_INBOX_PAGE_SIZE ?? 15);
const VACUUM = process.env.BENCH_INBOX_VACUUM !== "0";
const WARMUP = 5;
/** Mails written one by one to the measured inboxes after the load: about their last hours of traffic. */
const RECENT_MAIL = { heavy: 150, typical: 10 };
const GOAL_P50_MS = 20;
const BASE_URL = "http://localhost:3000";

const config = loadConfig({ DATA_DIR: path.join(os.tmpdir(), "hookmail-bench"), EMAIL_DOMAINS: "hookmail.test" });

/** Makes the process's services (made by the composition root) those of `database`: the routes measured reach them through its accessor. */
const installServicesOn = (database: Database) =>
  setServices(createServices({ config, logger: silentLogger, projectDir: process.cwd(), database }));

const callbackId = (index: number) => `ecb_bench${String(index).padStart(6, "0")}`;
const userId = (index: number) => `usr_bench${String(index).padStart(6, "0")}`;

type Inbox = { label: string; index: number; emailCallbackId: string; rows: number; authorization: string };
type PageFigures = { inbox: string; page: string; pageIndex: number; p50: number; p99: number; max: number };

/**
 * Users (the heavy one on the pro plan), one callback each, then the processings in creation order
 * (so the heap interleaves callbacks the way real traffic does). The table's secondary indexes are
 * dropped during the load and rebuilt from their own definitions after: same indexes, built in one sort.
 */
async function fill(executor: SqlExecutor) {
  await executor.withConnection(async (connection) => {
    await connection.exec(`SET TIME ZONE 'UTC'; SET maintenance_work_mem = '256MB'; SELECT setseed(0.42);`);
    await connection.query(
      `INSERT INTO "user" (id, name, email, "emailVerified", "planId", "createdAt", "updatedAt")
       SELECT 'usr_bench' || lpad(g::text, 6, '0'), 'Bench user ' || g, 'bench' || g || '@example.com', true,
              CASE WHEN g = 1 THEN $2::text ELSE $3::text END, now() - interval '120 days', now() - interval '120 days'
       FROM generate_series(1, $1::int) g`,
      [CALLBACKS, PLAN_ID.PRO, PLAN_ID.FREE],
    );
    await connection.query(
      `INSERT INTO email_callback (id, "userId", domain, username, "webhookUrl", "createdAt", "updatedAt")
       SELECT 'ecb_bench' || lpad(g::text, 6, '0'), 'usr_bench' || lpad(g::text, 6, '0'), 'hookmail.test', 'bench' || g,
              'https://hooks.example.com/' || g, now() - interval '120 days', now() - interval '120 days'
       FROM generate_series(1, $1::int) g`,
      [CALLBACKS],
    );
    const indexes = await connection.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes
       WHERE tablename = 'email_processing' AND indexname <> 'email_processing_pkey'`,
    );
    for (const { indexname } of indexes) await connection.exec(`DROP INDEX "${indexname}"`);
    // Callback 1 is heavy; the others get power(random(), 2)-skewed shares (low numbers get more).
    // Content (payload) is kept 72 h after delivery: only recent rows hold a small one.
    await connection.query(
      `WITH source AS (
         SELECT g,
                CASE WHEN g <= $2::int THEN 1 ELSE 2 + floor(($3::int - 1) * power(random(), 2))::int END AS callback,
                CASE WHEN g <= $2::int THEN 90 ELSE 30 END AS days,
                random() AS age, random() AS outcome
         FROM generate_series(1, $1::int) g
       ), timed AS (
         SELECT g, callback, outcome, date_trunc('milliseconds', localtimestamp - age * days * interval '1 day') AS created
         FROM source
       )
       INSERT INTO email_processing (id, "emailCallbackId", "fromAddress", subject, "messageId", recipient, status, error,
                                     "webhookResponseStatusCode", payload, "attemptCount", "deliveredAt", "createdAt", "updatedAt")
       SELECT 'ep_' || substr(md5(g::text), 1, 22), 'ecb_bench' || lpad(callback::text, 6, '0'),
              'sender' || (g % 5000) || '@example.org', 'Message ' || g || ' about invoice ' || (g % 977),
              '<' || g || '@mail.example.org>', 'bench' || callback || '@hookmail.test',
              CASE WHEN outcome < 0.85 THEN 'success' WHEN outcome < 0.94 THEN 'error' ELSE 'not-processed' END,
              CASE WHEN outcome < 0.85 THEN NULL WHEN outcome < 0.94 THEN 'webhook-failed' ELSE 'not-enabled' END,
              CASE WHEN outcome < 0.85 THEN 200 WHEN outcome < 0.94 THEN 500 ELSE NULL END,
              CASE WHEN created > localtimestamp - interval '72 hours' THEN convert_to(repeat('{"x":1}', 128), 'UTF8') END,
              CASE WHEN outcome < 0.94 THEN 1 ELSE 0 END,
              CASE WHEN outcome < 0.85 THEN created + interval '300 milliseconds' END,
              created, created
       FROM timed
       ORDER BY created`,
      [ROWS, HEAVY_ROWS, CALLBACKS],
    );
    // A delivered or failed mail's delivery to its address's first endpoint, in the mail's state (as
    // the product writes them; the address's trigger named that endpoint after it).
    await connection.exec(
      `INSERT INTO delivery (id, "emailProcessingId", "endpointId", status, error, "attemptCount", "lastStatusCode",
                             "deliveredAt", "createdAt", "updatedAt")
       SELECT 'dlv_' || substring(p.id FROM 4), p.id, 'ept_' || substring(p."emailCallbackId" FROM 5), p.status, p.error,
              p."attemptCount", p."webhookResponseStatusCode", p."deliveredAt", p."createdAt", p."updatedAt"
       FROM email_processing p WHERE p.status IN ('success', 'error')`,
    );
    for (const { indexdef } of indexes) await connection.exec(indexdef);
  });
  await executor.exec(VACUUM ? "VACUUM (ANALYZE)" : "ANALYZE");
}

/**
 * Recent mail, one INSERT statement per processing as the inbound pipeline writes it, after the
 * load and its vacuum: the newest rows of the inbox, not yet all-visible, each with its own count row.
 */
async function receiveRecentMail(executor: SqlExecutor, inbox: Inbox, count: number) {
  for (let index = 0; index < count; index += 1) {
    await executor.query(
      `WITH processing AS (
         INSERT INTO email_processing (id, "emailCallbackId", "fromAddress", subject, "messageId", recipient, status,
                                       "webhookResponseStatusCode", "attemptCount", "deliveredAt", "createdAt", "updatedAt")
         VALUES ($1, $2, 'recent@example.org', 'Recent message', $3, 'recent@hookmail.test', 'success', 200, 1,
                 now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
         RETURNING id, "deliveredAt", "createdAt"
       )
       INSERT INTO delivery (id, "emailProcessingId", "endpointId", status, "attemptCount", "lastStatusCode", "deliveredAt",
                             "createdAt", "updatedAt")
       SELECT $4, processing.id, $5, 'success', 1, 200, processing."deliveredAt", processing."createdAt", processing."createdAt"
       FROM processing`,
      [
        `ep_recent_${inbox.index}_${index}`,
        inbox.emailCallbackId,
        `<recent-${inbox.index}-${index}@mail.example.org>`,
        `dlv_recent_${inbox.index}_${index}`,
        `ept_${inbox.emailCallbackId.slice("ecb_".length)}`,
      ],
    );
  }
  inbox.rows += count;
}

/** An API key for the callback's owner, inserted as the API stores it (hashed). */
async function createAuthorization(executor: SqlExecutor, index: number): Promise<string> {
  const token = generateApiKeyToken();
  await executor.query(`INSERT INTO api_key (id, "userId", name, prefix, "hashedKey") VALUES ($1, $2, 'bench', $3, $4)`, [
    `ak_bench${index}`,
    userId(index),
    getApiKeyDisplayPrefix(token),
    hashApiKeyToken(token),
  ]);
  return `Bearer ${token}`;
}

async function requestPage(inbox: Inbox, pageIndex: number, filter = "") {
  const request = new Request(
    `${BASE_URL}/api/email-callbacks/${inbox.emailCallbackId}/processings?pageIndex=${pageIndex}&pageSize=${PAGE_SIZE}${filter}`,
    { headers: { authorization: inbox.authorization } },
  );
  const response = await inboxGet(request, { params: Promise.resolve({ emailCallbackId: inbox.emailCallbackId }) });
  const body = (await response.json()) as { emailProcessings?: unknown[]; emailProcessingsCount?: number };
  if (response.status !== 200) throw new Error(`the inbox answered ${response.status}: ${JSON.stringify(body)}`);
  return body as { emailProcessings: { createdAt: string }[]; emailProcessingsCount: number };
}

async function measurePage(inbox: Inbox, page: string, pageIndex: number): Promise<PageFigures> {
  const expectedLength = Math.min(PAGE_SIZE, inbox.rows - pageIndex * PAGE_SIZE);
  for (let i = 0; i < WARMUP; i += 1) await requestPage(inbox, pageIndex);
  const durations: number[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const startedAt = now();
    const body = await requestPage(inbox, pageIndex);
    durations.push(now() - startedAt);
    if (body.emailProcessingsCount !== inbox.rows || body.emailProcessings.length !== expectedLength) {
      throw new Error(
        `${inbox.label} page ${pageIndex}: got ${body.emailProcessings.length} rows of ${body.emailProcessingsCount}, ` +
          `expected ${expectedLength} of ${inbox.rows}`,
      );
    }
  }
  durations.sort((a, b) => a - b);
  return {
    inbox: inbox.label,
    page,
    pageIndex,
    p50: percentile(durations, 50),
    p99: percentile(durations, 99),
    max: durations.at(-1)!,
  };
}

/** The heavy inbox's first page under a filter: `expected` is what a count over its rows says. */
async function measureFilteredPage(inbox: Inbox, page: string, filter: string, expected: number): Promise<PageFigures> {
  const durations: number[] = [];
  for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
    const startedAt = now();
    const body = await requestPage(inbox, 0, filter);
    if (i >= WARMUP) durations.push(now() - startedAt);
    if (body.emailProcessingsCount !== expected || body.emailProcessings.length !== Math.min(PAGE_SIZE, expected)) {
      throw new Error(
        `${inbox.label} ${page}: got ${body.emailProcessings.length} rows of ${body.emailProcessingsCount}, expected ${expected}`,
      );
    }
  }
  durations.sort((a, b) => a - b);
  return {
    inbox: inbox.label,
    page,
    pageIndex: 0,
    p50: percentile(durations, 50),
    p99: percentile(durations, 99),
    max: durations.at(-1)!,
  };
}

/** What the filtered pages ask for, and how many of the heavy inbox's rows each keeps. */
async function filteredPages(executor: SqlExecutor, inbox: Inbox) {
  const count = async (condition: string, parameter: string) => {
    const [row] = await executor.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM email_processing WHERE "emailCallbackId" = $1 AND ${condition}`,
      [inbox.emailCallbackId, parameter],
    );
    return row!.n;
  };
  const contains = `("fromAddress" ILIKE '%' || $2 || '%' OR subject ILIKE '%' || $2 || '%')`;
  return [
    { page: "status=error", filter: "&status=error", expected: await count("status = $2", "error") },
    { page: "q, many match", filter: "&q=invoice%2097", expected: await count(contains, "invoice 97") },
    { page: "q, few match", filter: "&q=sender42%40", expected: await count(contains, "sender42@") },
    { page: "q, none match", filter: "&q=no-such-sender", expected: await count(contains, "no-such-sender") },
  ];
}

/** The SQL the route runs for one request, from Prisma's query events on a client of its own. */
async function captureQueries(url: string, inbox: Inbox, pageIndex: number, measured: Database, filter = "") {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), log: [{ emit: "event", level: "query" }] });
  const queries: { sql: string; params: unknown[] }[] = [];
  prisma.$on("query", (event) => queries.push({ sql: event.query, params: JSON.parse(event.params) as unknown[] }));
  installServicesOn({ ...measured, prisma });
  try {
    await requestPage(inbox, pageIndex, filter);
  } finally {
    installServicesOn(measured);
    await prisma.$disconnect();
    await pool.end();
  }
  return queries.filter(({ sql }) => sql.includes("email_processing"));
}

async function printPlans(executor: SqlExecutor, queries: { sql: string; params: unknown[] }[]) {
  for (const { sql, params } of queries) {
    console.log(`\n  SQL: ${sql}\n  params: ${JSON.stringify(params)}`);
    const plan = await executor.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    for (const row of plan) console.log(`    ${row["QUERY PLAN"]}`);
  }
}

async function printDataShape(executor: SqlExecutor, heavy: Inbox, typical: Inbox) {
  const [sizes] = await executor.query<{ rows: string; heap: string; indexes: string }>(
    `SELECT (SELECT count(*) FROM email_processing)::text AS rows,
            pg_size_pretty(pg_table_size('email_processing')) AS heap,
            pg_size_pretty(pg_indexes_size('email_processing')) AS indexes`,
  );
  const [distribution] = await executor.query<{ p50: number; p90: number; biggest: number }>(
    `SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY n) AS p50, percentile_disc(0.9) WITHIN GROUP (ORDER BY n) AS p90, max(n) AS biggest
     FROM (SELECT count(*) AS n FROM email_processing WHERE "emailCallbackId" <> $1 GROUP BY "emailCallbackId") counts`,
    [heavy.emailCallbackId],
  );
  console.log(
    `  ${sizes!.rows} processings (table ${sizes!.heap}, indexes ${sizes!.indexes}) across ${CALLBACKS} callbacks; ` +
      `heavy callback ${heavy.rows} rows (the last ${RECENT_MAIL.heavy} written one statement each after the load, as are the typical one's last ${RECENT_MAIL.typical}); the others: median ${distribution!.p50}, p90 ${distribution!.p90}, max ${distribution!.biggest}; ` +
      `typical = median callback (${typical.rows} rows)`,
  );
}

/** The callback whose row count is the median of the non-heavy ones. */
async function findTypicalCallback(executor: SqlExecutor): Promise<{ index: number; rows: number }> {
  const rows = await executor.query<{ emailCallbackId: string; n: number }>(
    `SELECT "emailCallbackId", count(*)::int AS n FROM email_processing WHERE "emailCallbackId" <> $1
     GROUP BY "emailCallbackId" ORDER BY n, "emailCallbackId"`,
    [callbackId(1)],
  );
  const median = rows[Math.floor(rows.length / 2)]!;
  return { index: Number(median.emailCallbackId.slice("ecb_bench".length)), rows: median.n };
}

function printFigures(figures: PageFigures[]) {
  const f = (n: number) => n.toFixed(1).padStart(6);
  console.log(`\n  ${"inbox".padEnd(26)} ${"page".padEnd(18)} p50 ms  p99 ms  max ms   goal p50 ≤ ${GOAL_P50_MS} ms`);
  for (const row of figures) {
    const met = row.p50 <= GOAL_P50_MS ? "met" : "NOT met";
    console.log(
      `  ${row.inbox.padEnd(26)} ${`${row.page} (${row.pageIndex})`.padEnd(18)} ${f(row.p50)}  ${f(row.p99)}  ${f(row.max)}   ${met}`,
    );
  }
}

async function main() {
  console.log(
    `inbox-at-scale: ${ROWS} processings, ${CALLBACKS} callbacks, heavy ${HEAVY_ROWS}; page size ${PAGE_SIZE}; ` +
      `${REQUESTS} requests per page after ${WARMUP} warm-up; ${VACUUM ? "VACUUM ANALYZE" : "ANALYZE only"}; ` +
      `node ${process.version}, ${os.cpus().length} CPUs`,
  );
  const server = findDatabaseUrlServer() ?? (await startEmbeddedBenchServer());
  console.log(
    `  on ${server.kind === "embedded" ? "the embedded PostgreSQL server (DATABASE_URL unset)" : "the PostgreSQL server of DATABASE_URL"}`,
  );
  const { url, drop } = await createDatabaseOn(server.adminUrl);
  const database = await openDatabase({ url, poolSize: 10 });
  try {
    await migrateDatabase(database, silentLogger);
    installServicesOn(database);
    const fillStartedAt = now();
    await fill(database.executor);
    console.log(`  loaded in ${((now() - fillStartedAt) / 1000).toFixed(1)} s`);

    const typicalCallback = await findTypicalCallback(database.executor);
    const heavy: Inbox = {
      label: "heavy callback",
      index: 1,
      emailCallbackId: callbackId(1),
      rows: HEAVY_ROWS,
      authorization: await createAuthorization(database.executor, 1),
    };
    const typical: Inbox = {
      label: "typical callback",
      index: typicalCallback.index,
      emailCallbackId: callbackId(typicalCallback.index),
      rows: typicalCallback.rows,
      authorization: await createAuthorization(database.executor, typicalCallback.index),
    };
    await receiveRecentMail(database.executor, heavy, RECENT_MAIL.heavy);
    await receiveRecentMail(database.executor, typical, RECENT_MAIL.typical);
    await printDataShape(database.executor, heavy, typical);

    // Warm-up: the code paths, Prisma's query plans and the pool's connections.
    for (let index = 0; index < 20; index += 1) await requestPage(index % 2 ? heavy : typical, index);
    const loadBefore = os.loadavg()[0]!;

    const figures: PageFigures[] = [];
    for (const inbox of [typical, heavy]) {
      const lastPage = Math.ceil(inbox.rows / PAGE_SIZE) - 1;
      for (const [page, pageIndex] of [
        ["first", 0],
        ["middle", Math.floor(lastPage / 2)],
        ["last", lastPage],
      ] as const) {
        figures.push(await measurePage(inbox, page, pageIndex));
      }
    }
    for (const { page, filter, expected } of await filteredPages(database.executor, heavy)) {
      figures.push(await measureFilteredPage(heavy, page, filter, expected));
    }
    printFigures(figures);
    console.log(
      `  1-minute load average of the machine (${os.cpus().length} CPUs): ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after`,
    );

    console.log(`\n  EXPLAIN (ANALYZE, BUFFERS) of the heavy callback's last page (the SQL the route ran):`);
    const queries = await captureQueries(url, heavy, Math.ceil(heavy.rows / PAGE_SIZE) - 1, database);
    await printPlans(database.executor, queries);

    const fewMatch = (await filteredPages(database.executor, heavy)).find(({ page }) => page === "q, few match")!;
    console.log(`\n  EXPLAIN (ANALYZE, BUFFERS) of the heavy callback's search (${fewMatch.filter}):`);
    await printPlans(database.executor, await captureQueries(url, heavy, 0, database, fewMatch.filter));

    const notMet = figures.filter((row) => row.p50 > GOAL_P50_MS);
    console.log(
      `\n  goal p50 ≤ ${GOAL_P50_MS} ms: ${notMet.length === 0 ? "met on every page" : `NOT met on ${notMet.map((row) => `${row.inbox} ${row.page}`).join(", ")}`}`,
    );
  } finally {
    await database.close();
    await drop();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
