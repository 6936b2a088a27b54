// How the inbound repository writes a message's large values (README: Receiving mail, messages up to
// MAX_MESSAGE_BYTES): byte for byte, and never as one statement parameter, which node-postgres
// would copy whole into its protocol buffer (bench/RESULTS.md: Large message).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import type { SqlExecutor } from "@/modules/db/sql-executor";
import { LARGE_PAYLOAD_BYTES } from "@/modules/delivery/delivery.constants";
import { createId } from "@/modules/shared/ids";
import { createTestDatabase } from "@/tests/support/test-database";
import { createInboundRepository, type NewProcessing } from "./inbound.repository";

const MIB = 1024 * 1024;

let database: Database;
let emailCallbackIds: string[];

beforeAll(async () => {
  database = await createTestDatabase();
  const userId = createId("user");
  await database.prisma.user.create({ data: { id: userId, name: "Owner", email: `${userId}@example.com` } });
  emailCallbackIds = [];
  for (const username of ["first", "second"]) {
    const { id } = await database.prisma.emailCallback.create({
      data: {
        id: createId("emailCallback"),
        userId,
        domain: "hookmail.test",
        username,
        webhookUrl: "https://hooks.example.com/incoming",
      },
    });
    emailCallbackIds.push(id);
  }
});
afterAll(() => database?.close());

/** The executor, recording the largest byte parameter of every statement it runs, in or out of a transaction. */
function recordLargestParameter(executor: SqlExecutor, largest: { bytes: number }): SqlExecutor {
  const note = (params: unknown[] = []) => {
    for (const param of params) if (param instanceof Uint8Array) largest.bytes = Math.max(largest.bytes, param.byteLength);
  };
  return {
    query: (sql, params) => {
      note(params);
      return executor.query(sql, params);
    },
    exec: (sql) => executor.exec(sql),
    copyFrom: (sql, chunks) => {
      note([...chunks]);
      return executor.copyFrom(sql, chunks);
    },
    withConnection: (fn) => executor.withConnection((connection) => fn(recordLargestParameter(connection, largest))),
    transaction: (fn, options) =>
      executor.transaction((transaction) => fn(recordLargestParameter(transaction, largest)), options),
  };
}

function buildRow(emailCallbackId: string, rawMessage: Uint8Array, payload: Uint8Array): NewProcessing {
  const now = new Date();
  return {
    id: createId("emailProcessing"),
    emailCallbackId,
    fromAddress: "bob@example.org",
    subject: "Large",
    messageId: null,
    recipient: "someone@hookmail.test",
    tag: null,
    status: "pending",
    error: null,
    rawMessage,
    payload,
    nextAttemptAt: now,
    // Its delivery to the address's first endpoint, which the address's trigger named after it.
    deliveries: [{ id: createId("delivery"), endpointId: `ept_${emailCallbackId.slice("ecb_".length)}` }],
    lockedUntil: null,
    createdAt: now,
  };
}

describe("createProcessings with large values", () => {
  it("stores a large raw message shared by two rows and their large webhook bodies byte for byte, no statement carrying more than LARGE_PAYLOAD_BYTES of them", async () => {
    const raw = randomBytes(3 * MIB + 17);
    const payloads = [randomBytes(2 * MIB + 5), randomBytes(LARGE_PAYLOAD_BYTES + 1)];
    const rows = emailCallbackIds.map((id, index) => buildRow(id, raw, payloads[index]!));
    const largest = { bytes: 0 };
    const repository = createInboundRepository({ executor: recordLargestParameter(database.executor, largest) });

    const written = await repository.createProcessings(rows, { duplicatesSince: new Date(0) });

    expect(written).toEqual(rows.map((row) => row.id));
    expect(largest.bytes).toBeLessThanOrEqual(LARGE_PAYLOAD_BYTES);
    for (const [index, row] of rows.entries()) {
      const stored = await database.prisma.emailProcessing.findUniqueOrThrow({ where: { id: row.id } });
      expect(Buffer.from(stored.rawMessage ?? []).equals(raw)).toBe(true);
      expect(Buffer.from(stored.payload ?? []).equals(payloads[index]!)).toBe(true);
    }
  });

  it("stores a raw message of exactly LARGE_PAYLOAD_BYTES and a small body as they are", async () => {
    const raw = randomBytes(LARGE_PAYLOAD_BYTES);
    const payload = Buffer.from('{"type":"email.received"}');
    const row = buildRow(emailCallbackIds[0]!, raw, payload);
    await createInboundRepository(database).createProcessings([row], { duplicatesSince: new Date(0) });
    const stored = await database.prisma.emailProcessing.findUniqueOrThrow({ where: { id: row.id } });
    expect(Buffer.from(stored.rawMessage ?? []).equals(raw)).toBe(true);
    expect(Buffer.from(stored.payload ?? []).equals(payload)).toBe(true);
  });
});
