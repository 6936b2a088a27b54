// What the embedded PostgreSQL server may reach (docs/security.md: The embedded database server):
// its processes get none of the app's secrets, as root it runs as Hookmail's own account rather
// than the `postgres` account another server may use, and the app connects as a role that is no
// superuser but owns its database. A DATA_DIR of an earlier version (its cluster the `postgres`
// account's, the app connected as the superuser) keeps its data and is handed over at the next start.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "@/modules/shared/logging/logger";
import { findFreePort } from "@/modules/shared/net/free-port";
import { createDataDir, setUpCleanUpsAfterEach } from "@/tests/support/embedded-data-dir";
import { migrateDatabase, openConfiguredDatabase, openDatabase } from "./db";
import { type EmbeddedServer, POSTGRES_DIRECTORY, readServerLock, SERVER_LOG_FILE, startEmbeddedServer } from "./embedded-server";
import { buildServerEnvironment, loadBinaries, runAsServerUser, SERVER_USER } from "./embedded-server-host";
import { ADMIN_ROLE, APP_ROLE, DATABASE } from "./embedded-server-roles";

const TIMEOUT = { timeout: 180_000 };
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const execFileAsync = promisify(execFile);
const cleanUps = setUpCleanUpsAfterEach();

const SECRETS = {
  AUTH_SECRET: "auth-secret-that-signs-content-links",
  INBOUND_SECRET: "inbound-secret-of-the-providers",
  METRICS_TOKEN: "metrics-token-of-the-scraper",
  STRIPE_SECRET_KEY: "sk_live_not_for_postgres",
  PGPASSWORD: "a-password-for-libpq",
};
/**
 * What the server's programs may get from this process, and what they set themselves (pg_ctl sets
 * PGDATA, PGSYSCONFDIR and PG_GRANDPARENT_PID, and starts the server through a shell, which sets PWD).
 */
const ALLOWED_VARIABLE = /^(PATH|LANG|LC_[A-Z]+|TZ|TZDIR|HOME|PGDATA|PGSYSCONFDIR|PG_GRANDPARENT_PID|PWD)$/;

const environment = process.env as Record<string, string | undefined>;
const savedEnvironment = { ...environment };
afterEach(() => {
  for (const name of Object.keys(SECRETS)) {
    if (savedEnvironment[name] === undefined) delete environment[name];
    else environment[name] = savedEnvironment[name];
  }
});

async function start(dataDir: string): Promise<EmbeddedServer> {
  const server = await startEmbeddedServer({ dataDir, settings: { fsync: "off" } });
  cleanUps.push(() => server.release().then(() => undefined));
  return server;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

function readEnvironment(pid: number): Record<string, string> {
  const entries = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]));
}

const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);

async function findAccount(name: string): Promise<{ uid: number; home: string; shell: string } | null> {
  try {
    const fields = (await execFileAsync("getent", ["passwd", name])).stdout.trim().split(":");
    return { uid: Number(fields[2]), home: fields[5] ?? "", shell: fields[6] ?? "" };
  } catch {
    return null;
  }
}

/** Owners of the tables, sequences, indexes, functions and the database itself. */
const LIST_OWNERS_SQL = `SELECT owner, count(*)::int AS count FROM (
       SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'S', 'i')
       UNION ALL SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
         AND NOT EXISTS (SELECT 1 FROM pg_depend WHERE objid = pg_proc.oid AND deptype = 'e')
       UNION ALL SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()
     ) owners GROUP BY owner ORDER BY owner`;

describe("the embedded server's processes", () => {
  it(
    "get none of the app's secrets: the postmaster's environment holds only the path, locale, time zone and HOME",
    TIMEOUT,
    async () => {
      Object.assign(environment, SECRETS);
      const dataDir = createDataDir(cleanUps);
      await start(dataDir);
      const { pid } = readServerLock(path.join(dataDir, POSTGRES_DIRECTORY))!;

      const serverEnvironment = readEnvironment(pid);

      expect(Object.keys(serverEnvironment).filter((name) => !ALLOWED_VARIABLE.test(name))).toEqual([]);
      for (const secret of Object.values(SECRETS)) expect(Object.values(serverEnvironment)).not.toContain(secret);
      expect(serverEnvironment.PATH).toBe(process.env.PATH);
      if (isRoot) expect(serverEnvironment.HOME).toBe((await findAccount(SERVER_USER))?.home);
    },
  );

  it("get HOME of the account they run as, and on Windows what a program needs to start, nothing else", () => {
    const parent = {
      PATH: "/usr/bin",
      LANG: "fr_FR.UTF-8",
      HOME: "/root",
      AUTH_SECRET: "x",
      SystemRoot: "C:\\Windows",
      PGPORT: "1",
    };
    const user = { uid: 990, gid: 990, name: SERVER_USER, home: "/nonexistent" };

    expect(buildServerEnvironment(parent, user, "linux")).toEqual({
      PATH: "/usr/bin",
      LANG: "fr_FR.UTF-8",
      HOME: "/nonexistent",
      LC_ALL: "C",
      LC_MESSAGES: "C",
    });
    expect(buildServerEnvironment(parent, null, "win32")).toMatchObject({ HOME: "/root", SystemRoot: "C:\\Windows" });
    expect(buildServerEnvironment(parent, null, "win32")).not.toHaveProperty("AUTH_SECRET");
  });

  it.runIf(isRoot)(
    "run, when started by root, as Hookmail's own account hookmail-db (no login shell), not the postgres account of the machine's own PostgreSQL",
    TIMEOUT,
    async () => {
      const dataDir = createDataDir(cleanUps);
      await start(dataDir);
      const { pid } = readServerLock(path.join(dataDir, POSTGRES_DIRECTORY))!;
      const account = await findAccount(SERVER_USER);
      const postgresAccount = await findAccount("postgres");

      expect(account).not.toBeNull();
      expect(account!.shell).toMatch(/nologin|false/);
      expect(uidOf(pid)).toBe(account!.uid);
      expect(uidOf(pid)).not.toBe(postgresAccount?.uid ?? 0);
      expect(fs.statSync(path.join(dataDir, POSTGRES_DIRECTORY)).uid).toBe(account!.uid);
    },
  );
});

describe("the app's connection to the embedded server", () => {
  it(
    "is a role that is no superuser, owns its database, and runs the migrations: every table, index and function is its own",
    TIMEOUT,
    async () => {
      const database = await openConfiguredDatabase({ databaseUrl: undefined, dataDir: createDataDir(cleanUps) });
      cleanUps.push(() => database.close());

      await migrateDatabase(database, silentLogger);

      expect(
        await database.executor.query("SELECT current_user AS name, rolsuper FROM pg_roles WHERE rolname = current_user"),
      ).toEqual([{ name: APP_ROLE, rolsuper: false }]);
      expect(await database.executor.query(LIST_OWNERS_SQL)).toEqual([{ owner: APP_ROLE, count: expect.any(Number) }]);
      // pg_trgm is a trusted extension: the database's owner creates it, and the search index with it.
      const [searchIndex] = await database.executor.query<{ owner: string }>(
        "SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relname = 'email_processing_search_trgm_idx'",
      );
      expect(searchIndex).toEqual({ owner: APP_ROLE });
    },
  );
});

/** Every path in the tree whose owner is not `uid`. */
function findOtherOwners(directory: string, uid: number): string[] {
  const others = fs.lstatSync(directory).uid === uid ? [] : [directory];
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) others.push(...findOtherOwners(file, uid));
    else if (fs.lstatSync(file).uid !== uid) others.push(file);
  }
  return others;
}

/**
 * Turns a fresh DATA_DIR into what an earlier version left: the `hookmail` database created, owned
 * and migrated by the superuser, holding a row, no app role, and (as root) the cluster the
 * `postgres` account's. The server is stopped after.
 */
async function makeEarlierVersionDataDir(dataDir: string) {
  const server = await startEmbeddedServer({ dataDir, settings: { fsync: "off" } });
  const adminUrl = server.adminUrlFor("postgres");
  await query(adminUrl, `DROP DATABASE ${DATABASE} WITH (FORCE)`);
  await query(adminUrl, `DROP ROLE ${APP_ROLE}`);
  await query(adminUrl, `CREATE DATABASE ${DATABASE}`);
  const earlier = await openDatabase({ url: server.adminUrlFor(DATABASE), poolSize: 1 });
  try {
    await migrateDatabase(earlier, silentLogger);
    await earlier.executor.exec("CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
  } finally {
    await earlier.close();
  }
  expect(await query(server.adminUrlFor(DATABASE), LIST_OWNERS_SQL)).toEqual([{ owner: ADMIN_ROLE, count: expect.any(Number) }]);
  await server.release();
  if (isRoot) {
    if (!(await findAccount("postgres"))) {
      await execFileAsync("useradd", [
        "--system",
        "--user-group",
        "--no-create-home",
        "--shell",
        "/usr/sbin/nologin",
        "postgres",
      ]);
    }
    await execFileAsync("chown", ["-R", "postgres:postgres", path.join(dataDir, POSTGRES_DIRECTORY)]);
    await execFileAsync("chown", ["root:postgres", dataDir]);
  }
}

describe("a DATA_DIR of an earlier version (the cluster the postgres account's, the app connected as the superuser)", () => {
  it(
    "keeps its data, and at the next start is handed over to hookmail-db and to the app's role, which can then change its schema",
    TIMEOUT,
    async () => {
      const dataDir = createDataDir(cleanUps);
      const clusterDir = path.join(dataDir, POSTGRES_DIRECTORY);
      await makeEarlierVersionDataDir(dataDir);

      const database = await openConfiguredDatabase({ databaseUrl: undefined, dataDir });
      cleanUps.push(() => database.close());

      expect(await database.executor.query("SELECT note FROM kept")).toEqual([{ note: "still here" }]);
      expect(await database.executor.query("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")).toEqual([
        { rolsuper: false },
      ]);
      expect(await database.executor.query(LIST_OWNERS_SQL)).toEqual([{ owner: APP_ROLE, count: expect.any(Number) }]);
      // What a later migration does: change a table, replace a function, and the runner finds nothing to apply.
      await database.executor.exec(
        `ALTER TABLE "email_processing" ADD COLUMN "probe" integer; ALTER TABLE "email_processing" DROP COLUMN "probe"`,
      );
      const [trigger] = await database.executor.query<{ definition: string }>(
        `SELECT pg_get_functiondef('"processing_event_recorded"'::regproc) AS definition`,
      );
      await database.executor.exec(trigger!.definition);
      expect((await migrateDatabase(database, silentLogger)).applied).toEqual([]);
      if (isRoot) {
        const account = (await findAccount(SERVER_USER))!;
        expect(uidOf(readServerLock(clusterDir)!.pid)).toBe(account.uid);
        expect(findOtherOwners(clusterDir, account.uid)).toEqual([]);
      }
    },
  );
});

describe("a server that an earlier version started as the postgres account and still runs", () => {
  it.runIf(isRoot)(
    "is joined as it is and stopped by its last user, and the start after that hands the cluster over to hookmail-db",
    TIMEOUT,
    async () => {
      const dataDir = createDataDir(cleanUps);
      const clusterDir = path.join(dataDir, POSTGRES_DIRECTORY);
      await makeEarlierVersionDataDir(dataDir);
      const postgresAccount = (await findAccount("postgres"))!;
      const postgresUser = { uid: postgresAccount.uid, gid: fs.statSync(clusterDir).gid, name: "postgres", home: "/" };
      await runAsServerUser(postgresUser, (await loadBinaries()).pg_ctl, [
        "start",
        "--wait",
        `--pgdata=${clusterDir}`,
        `--log=${path.join(clusterDir, SERVER_LOG_FILE)}`,
        `--options=-p ${await findFreePort()}`,
      ]);
      const earlierPid = readServerLock(clusterDir)!.pid;

      const joined = await startEmbeddedServer({ dataDir });
      expect(joined.startedHere).toBe(false);
      expect(uidOf(earlierPid)).toBe(postgresAccount.uid);
      expect(await query(joined.url, "SELECT note FROM kept")).toEqual([{ note: "still here" }]);
      expect(await joined.release()).toEqual({ stopped: true, otherProcesses: 0 });

      const next = await start(dataDir);
      const account = (await findAccount(SERVER_USER))!;
      expect(next.startedHere).toBe(true);
      expect(uidOf(readServerLock(clusterDir)!.pid)).toBe(account.uid);
      expect(findOtherOwners(clusterDir, account.uid)).toEqual([]);
    },
  );
});
