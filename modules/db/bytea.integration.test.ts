// bytea through the SQL executor, on a fresh test database: the raw messages and webhook bodies
// are bytea, handed over as Buffers or as Uint8Array views into larger memory (the bytes moved back
// from a parsing thread), and every byte must come back as it went in.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@/tests/support/test-database";
import type { Database } from "./db";

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
