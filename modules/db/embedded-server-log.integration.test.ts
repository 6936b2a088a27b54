// The embedded server's own log lines go through the process's logger as JSON lines with
// `component: "postgres"` and a level from their severity (docs/scaling.md: The embedded server):
// a real server started and stopped in a DATA_DIR of its own, and the relay's hand-over between two
// processes sharing a server, each with its keeper connection.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createDataDir, setUpCleanUpsAfterEach } from "@/tests/support/embedded-data-dir";
import { createMemoryLogger } from "@/tests/support/memory-logger";
import { getTestDatabaseServer } from "@/tests/support/test-database";
import { SERVER_LOG_FILE, startEmbeddedServer } from "./embedded-server";
import { createServerLogParser, RELAY_LOCK_KEY, startServerLogRelay } from "./embedded-server-log";

const INFO = 30;
const WARN = 40;
const ERROR = 50;

const cleanUps = setUpCleanUpsAfterEach();

async function connectKeeper(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: getTestDatabaseServer().adminUrl });
  client.on("error", () => undefined);
  await client.connect();
  cleanUps.push(() => client.end().catch(() => undefined));
  return client;
}

const waitFor = async (condition: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** Resolves once `keeper`'s session holds the relay's advisory lock. */
async function waitForLockHolder(keeper: pg.Client) {
  const observer = await connectKeeper();
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await observer.query<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = $1",
      [RELAY_LOCK_KEY],
    );
    if (rows.some(({ pid }) => pid === (keeper as pg.Client & { processID: number }).processID)) return;
    if (Date.now() > deadline) throw new Error("the relay's lock was not taken over");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the embedded server's log lines", () => {
  it("are written by the process that started the server as JSON lines with component postgres, its start and its stop", async () => {
    const dataDir = createDataDir(cleanUps, "hookmail-server-log-");
    const memory = createMemoryLogger();
    const server = await startEmbeddedServer({ dataDir, settings: { fsync: "off" }, logger: memory.logger });
    await waitFor(() => memory.entries.some((entry) => /ready to accept connections/.test(entry.msg)));
    await server.release();

    const postgresLines = memory.entries.filter((entry) => entry.component === "postgres");
    expect(postgresLines.find((entry) => /ready to accept connections/.test(entry.msg))).toMatchObject({
      level: INFO,
      msg: expect.stringMatching(/^LOG: {2}database system is ready to accept connections/),
      pid: expect.any(Number),
    });
    expect(postgresLines.some((entry) => /database system is shut down/.test(entry.msg))).toBe(true);
    // Each is one JSON object with a level and a time, as every other line of the process.
    for (const entry of postgresLines) expect(entry).toMatchObject({ level: expect.any(Number), time: expect.any(String) });
  }, 120_000);

  it("map LOG to info, WARNING to warn, ERROR and FATAL to error; a DETAIL or continuation keeps its message's level", () => {
    const parse = createServerLogParser();
    const prefix = "2026-11-26 07:00:00.123 UTC [4242] ";
    expect(parse(`${prefix}LOG:  checkpoint starting: time`)).toEqual({
      level: "info",
      msg: "LOG:  checkpoint starting: time",
      pid: 4242,
    });
    expect(parse(`${prefix}WARNING:  there is no transaction in progress`).level).toBe("warn");
    expect(parse(`${prefix}ERROR:  relation "nope" does not exist at character 15`).level).toBe("error");
    expect(parse(`${prefix}STATEMENT:  SELECT * FROM nope`).level).toBe("error");
    expect(parse("\tcontinued on a line of its own").level).toBe("error");
    expect(parse(`${prefix}FATAL:  password authentication failed for user "x"`).level).toBe("error");
    expect(parse(`${prefix}DETAIL:  Connection matched file "pg_hba.conf" line 3`).level).toBe("error");
    expect(parse(`${prefix}LOG:  database system is shut down`).level).toBe("info");
  });

  it("are relayed by one process at a time: another takes over when the relaying one stops", async () => {
    const file = path.join(createDataDir(cleanUps, "hookmail-server-log-"), path.basename(SERVER_LOG_FILE));
    const line = (severity: string, text: string) =>
      fs.appendFileSync(file, `2026-11-26 07:00:00.123 UTC [77] ${severity}:  ${text}\n`);
    line("LOG", "written before either process relays");
    const [first, second] = [createMemoryLogger(), createMemoryLogger()];
    const firstKeeper = await connectKeeper();
    const firstRelay = startServerLogRelay({ file, keeper: firstKeeper, logger: first.logger, fromOffset: 0 });
    await waitFor(() => first.entries.length === 1);
    const secondKeeper = await connectKeeper();
    const secondRelay = startServerLogRelay({ file, keeper: secondKeeper, logger: second.logger });
    cleanUps.push(() => secondRelay.stop());

    line("WARNING", "seen by the first only");
    await waitFor(() => first.entries.length === 2);
    await firstRelay.stop();
    // The first process's keeper connection closes with it: its lock goes, and the second takes over.
    await firstKeeper.end();
    await waitForLockHolder(secondKeeper);
    line("ERROR", "seen by the second");
    await waitFor(() => second.entries.length === 1);

    expect(first.entries.map(({ msg, level, component }) => ({ msg, level, component }))).toEqual([
      { msg: "LOG:  written before either process relays", level: INFO, component: "postgres" },
      { msg: "WARNING:  seen by the first only", level: WARN, component: "postgres" },
    ]);
    expect(second.entries.map(({ msg, level }) => ({ msg, level }))).toEqual([
      { msg: "ERROR:  seen by the second", level: ERROR },
    ]);
  }, 30_000);
});
