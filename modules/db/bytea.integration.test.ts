// bytea through the SQL executor, on a fresh test database: the raw messages and webhook bodies
// are bytea, handed over as Buffers or as Uint8Array views into larger memory (the bytes moved back
// from a parsing thread), and every byte must come back as it went in, read whole or in slices.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@/tests/support/test-database";
import type { Database } from "./db";
import { openBytea, readBytea, readByteaSlices, VALUE_SLICE_BYTES } from "./sliced-values";
import type { SqlExecutor } from "./sql-executor";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.executor.exec("CREATE TABLE bytea_round_trip (id integer PRIMARY KEY, content bytea)");
});
afterAll(async () => {
  await database?.close();
});

describe("a bytea parameter and result", () => {
  it.each([
    ["no bytes", Buffer.alloc(0)],
    ["every byte value", Buffer.from([...Array(256).keys(), ...Array(256).keys()].reverse())],
    ["2 MiB of random bytes", randomBytes(2 * 1024 * 1024 + 1)],
  ])("keeps %s exactly, as a Buffer or as a Uint8Array view into a larger buffer", async (_name, bytes) => {
    const padded = Buffer.concat([Buffer.from("before"), bytes, Buffer.from("after")]);
    const view = new Uint8Array(padded.buffer, padded.byteOffset + "before".length, bytes.length);
    await database.executor.query("INSERT INTO bytea_round_trip (id, content) VALUES (1, $1), (2, $2)", [bytes, view]);
    const rows = await database.executor.query<{ id: number; content: Uint8Array; length: number }>(
      "SELECT id, content, octet_length(content) AS length FROM bytea_round_trip ORDER BY id",
    );
    await database.executor.exec("DELETE FROM bytea_round_trip");
    expect(rows.map((row) => row.length)).toEqual([bytes.length, bytes.length]);
    for (const row of rows) {
      expect(row.content).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(row.content).equals(bytes)).toBe(true);
    }
  });
});

describe("a large value read in slices (docs/architecture.md: Large values)", () => {
  const ref = (id: string, match?: Record<string, string>) => ({ table: "bytea_owned", column: "content", id, match });

  /** The test database's executor, watched: `before` runs ahead of each statement, `after` sees its rows. */
  const watchedExecutor = ({
    before = async () => {},
    after = () => {},
  }: {
    before?: () => Promise<void>;
    after?: (rows: Record<string, unknown>[]) => void;
  }): SqlExecutor => ({
    ...database.executor,
    query: async <T>(sql: Parameters<SqlExecutor["query"]>[0], params?: unknown[]) => {
      await before();
      const rows = await database.executor.query<T>(sql, params);
      after(rows as Record<string, unknown>[]);
      return rows;
    },
  });
  const countingExecutor = () => {
    const count = { statements: 0 };
    const executor = watchedExecutor({
      before: async () => {
        count.statements += 1;
      },
    });
    return { count, executor };
  };

  beforeAll(async () => {
    await database.executor.exec("CREATE TABLE bytea_owned (id text PRIMARY KEY, owner text, content bytea)");
  });

  it("comes back byte for byte, no result carrying more than one slice of it", async () => {
    const bytes = randomBytes(3 * VALUE_SLICE_BYTES + 5);
    await database.executor.query("INSERT INTO bytea_owned VALUES ('large', 'alice', $1)", [bytes]);
    const largest = { bytes: 0 };
    const watched = watchedExecutor({
      after: (rows) => {
        for (const value of rows.flatMap((row) => Object.values(row))) {
          // A slice comes as bytea, or as base64 text (the bytes it carries counted).
          const carried =
            value instanceof Uint8Array
              ? value.byteLength
              : typeof value === "string"
                ? Buffer.from(value, "base64").byteLength
                : 0;
          largest.bytes = Math.max(largest.bytes, carried);
        }
      },
    });
    const read = await readBytea(watched, ref("large", { owner: "alice" }));
    expect(read?.equals(bytes)).toBe(true);
    expect(largest.bytes).toBe(VALUE_SLICE_BYTES);
  });

  it("reads a value of one slice or less in a single statement", async () => {
    const bytes = randomBytes(VALUE_SLICE_BYTES);
    await database.executor.query("INSERT INTO bytea_owned VALUES ('one-slice', 'alice', $1)", [bytes]);
    const { count, executor } = countingExecutor();
    expect((await readBytea(executor, ref("one-slice")))?.equals(bytes)).toBe(true);
    expect(count.statements).toBe(1);
  });

  it("answers undefined without the row (or for another owner), null for a null value", async () => {
    await database.executor.query("INSERT INTO bytea_owned VALUES ('empty', 'alice', NULL), ('small', 'alice', '\\x0102')");
    expect(await readBytea(database.executor, ref("missing"))).toBeUndefined();
    expect(await readBytea(database.executor, ref("small", { owner: "bob" }))).toBeUndefined();
    expect(await readBytea(database.executor, ref("empty"))).toBeNull();
    expect(await readBytea(database.executor, ref("small", { owner: "alice" }))).toEqual(Buffer.from([1, 2]));
  });

  it("answers null when the value went between the slices", async () => {
    await database.executor.query("INSERT INTO bytea_owned VALUES ('dropped', 'alice', $1)", [
      randomBytes(VALUE_SLICE_BYTES + 1),
    ]);
    let reads = 0;
    const dropping = watchedExecutor({
      before: async () => {
        reads += 1;
        if (reads === 2) await database.executor.exec("UPDATE bytea_owned SET content = NULL WHERE id = 'dropped'");
      },
    });
    expect(await readByteaSlices(dropping, ref("dropped"), VALUE_SLICE_BYTES + 1)).toBeNull();
  });

  it("streams a download a slice at a time, reading the next slice only when the reader asks for it", async () => {
    const bytes = randomBytes(4 * VALUE_SLICE_BYTES + 7);
    await database.executor.query("INSERT INTO bytea_owned VALUES ('streamed', 'alice', $1)", [bytes]);
    const { count, executor: counted } = countingExecutor();
    const opened = await openBytea(counted, ref("streamed", { owner: "alice" }));
    expect(opened?.byteLength).toBe(bytes.length);
    const reader = opened!.stream.getReader();
    const first = await reader.read();
    expect(first.value?.byteLength).toBe(VALUE_SLICE_BYTES);
    // The length, then the first slice: nothing more is read until the reader asks.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(count.statements).toBe(2);
    const chunks = [Buffer.from(first.value!)];
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(Buffer.from(next.value));
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect(count.statements).toBe(1 + 5);
    expect(await openBytea(counted, ref("streamed", { owner: "bob" }))).toBeUndefined();
  });

  it("fails the stream when the value goes while it is downloaded", async () => {
    await database.executor.query("INSERT INTO bytea_owned VALUES ('going', 'alice', $1)", [randomBytes(3 * VALUE_SLICE_BYTES)]);
    const reader = (await openBytea(database.executor, ref("going")))!.stream.getReader();
    await reader.read();
    await database.executor.exec("UPDATE bytea_owned SET content = NULL WHERE id = 'going'");
    await expect(reader.read()).rejects.toThrow("changed while it was read");
  });
});
