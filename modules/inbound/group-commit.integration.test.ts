// Group commit of accepted mail (docs/architecture.md: Group commit): the single-row mails of
// concurrent sessions are written in one statement and one commit, duplicates within a group are
// written once, and a mail the database refuses fails alone while the rest of its group is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import type { PreparedStatement, SqlExecutor } from "@/modules/db/sql-executor";
import { createId } from "@/modules/shared/ids";
import { createTestDatabase } from "@/tests/support/test-database";
import { MAX_GROUPED_MAIL_BYTES } from "./accept-groups";
import { createInboundRepository, type NewProcessing } from "./inbound.repository";

let database: Database;
let emailCallbackId: string;

beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 8 });
  const userId = createId("user");
  await database.prisma.user.create({ data: { id: userId, name: "Owner", email: `${userId}@example.com` } });
  ({ id: emailCallbackId } = await database.prisma.emailCallback.create({
    data: {
      id: createId("emailCallback"),
      userId,
      domain: "hookmail.test",
      username: "groups",
      webhookUrl: "https://hooks.example.com/in",
    },
  }));
});
afterAll(() => database?.close());

/** The executor, counting the statements it runs by their prepared name (or "text" for the others). */
function countStatements(executor: SqlExecutor, counts: Map<string, number>): SqlExecutor {
  const nameOf = (sql: string | PreparedStatement) => (typeof sql === "string" ? "text" : sql.name);
  return {
    query: (sql, params) => {
      counts.set(nameOf(sql), (counts.get(nameOf(sql)) ?? 0) + 1);
      return executor.query(sql, params);
    },
    exec: (sql) => executor.exec(sql),
    copyFrom: (sql, chunks) => {
      counts.set("copy", (counts.get("copy") ?? 0) + 1);
      return executor.copyFrom(sql, chunks);
    },
    withConnection: (fn) => executor.withConnection((connection) => fn(countStatements(connection, counts))),
    transaction: (fn, options) => executor.transaction((transaction) => fn(countStatements(transaction, counts)), options),
  };
}

/** A pending mail to the address's first endpoint (the one its trigger made, named after it). */
function buildRow(overrides: Partial<NewProcessing> = {}): NewProcessing {
  const now = new Date();
  return {
    id: createId("emailProcessing"),
    emailCallbackId,
    fromAddress: "bob@example.org",
    subject: "Hello",
    messageId: `<${createId("user")}@example.org>`,
    recipient: "groups@hookmail.test",
    tag: null,
    status: "pending",
    error: null,
    rawMessage: Buffer.from(`Subject: Hello\r\n\r\n${createId("user")} \u00e9\\\x00\r\n`),
    payload: Buffer.from('{"type":"email.received"}'),
    nextAttemptAt: now,
    deliveries: [{ id: createId("delivery"), endpointId: `ept_${emailCallbackId.slice("ecb_".length)}` }],
    lockedUntil: null,
    createdAt: now,
    ...overrides,
  };
}

const duplicatesSince = () => new Date(Date.now() - 86_400_000);

function createGroupingRepository(settings = { windowMs: 20, maxGroup: 64 }) {
  const counts = new Map<string, number>();
  const repository = createInboundRepository({ executor: countStatements(database.executor, counts) }, settings);
  return { repository, counts };
}

describe("group commit of accepted mail", () => {
  it("writes 20 concurrent single-row mails in one statement, each with its delivery, and answers each its own id", async () => {
    const { repository, counts } = createGroupingRepository();
    const rows = Array.from({ length: 20 }, () => buildRow());

    const written = await Promise.all(
      rows.map((row) => repository.createProcessings([row], { duplicatesSince: duplicatesSince() })),
    );

    expect(written).toEqual(rows.map((row) => [row.id]));
    expect(counts.get("hookmail_insert_processings")).toBe(1);
    expect(counts.get("hookmail_insert_one_processing")).toBeUndefined();
    expect(repository.getAcceptGroupStats()).toEqual({ writes: 1, items: 20, retriedAlone: 0 });
    const ids = rows.map((row) => row.id);
    expect(await database.prisma.emailProcessing.count({ where: { id: { in: ids } } })).toBe(20);
    const deliveries = await database.prisma.delivery.findMany({ where: { emailProcessingId: { in: ids } } });
    expect(deliveries.map((delivery) => delivery.id).sort()).toEqual(rows.map((row) => row.deliveries[0]!.id).sort());
    expect(deliveries.every((delivery) => delivery.status === "pending")).toBe(true);
    const stored = await database.prisma.emailProcessing.findUniqueOrThrow({ where: { id: rows[7]!.id } });
    expect(Buffer.from(stored.rawMessage!).equals(Buffer.from(rows[7]!.rawMessage as Uint8Array))).toBe(true);
    expect(Buffer.from(stored.payload!).toString()).toBe('{"type":"email.received"}');
    expect(stored.createdAt.getTime()).toBe(rows[7]!.createdAt.getTime());
  });

  it("with ACCEPT_GROUP_MAX at 1, writes each mail by its own statement", async () => {
    const { repository, counts } = createGroupingRepository({ windowMs: 20, maxGroup: 1 });
    const rows = Array.from({ length: 3 }, () => buildRow());
    await Promise.all(rows.map((row) => repository.createProcessings([row], { duplicatesSince: duplicatesSince() })));
    expect(counts.get("hookmail_insert_one_processing")).toBe(3);
    expect(counts.get("hookmail_insert_processings")).toBeUndefined();
  });

  it("writes a mail over MAX_GROUPED_MAIL_BYTES alone, and groups the others", async () => {
    const { repository, counts } = createGroupingRepository();
    const large = buildRow({ rawMessage: Buffer.alloc(MAX_GROUPED_MAIL_BYTES + 1, 0x61) });
    const rows = [buildRow(), large, buildRow()];
    const written = await Promise.all(
      rows.map((row) => repository.createProcessings([row], { duplicatesSince: duplicatesSince() })),
    );
    expect(written).toEqual(rows.map((row) => [row.id]));
    expect(counts.get("hookmail_insert_one_processing")).toBe(1);
    expect(counts.get("hookmail_insert_processings")).toBe(1);
  });

  it("writes the first of two copies of one message in one group and answers the second as a duplicate", async () => {
    const { repository, counts } = createGroupingRepository();
    const messageId = "<twice@example.org>";
    const [first, second, other] = [buildRow({ messageId }), buildRow({ messageId }), buildRow()];

    const written = await Promise.all(
      [first!, second!, other!].map((row) => repository.createProcessings([row], { duplicatesSince: duplicatesSince() })),
    );

    expect(written).toEqual([[first!.id], [], [other!.id]]);
    expect(counts.get("hookmail_insert_processings")).toBe(1);
    const stored = await database.prisma.emailProcessing.findMany({ where: { messageId } });
    expect(stored.map((row) => row.id)).toEqual([first!.id]);
    expect(await database.prisma.delivery.count({ where: { id: second!.deliveries[0]!.id } })).toBe(0);
  });

  it("answers a copy of a message written by an earlier group as a duplicate", async () => {
    const { repository } = createGroupingRepository();
    const messageId = "<again@example.org>";
    await repository.createProcessings([buildRow({ messageId })], { duplicatesSince: duplicatesSince() });
    const [copy, other] = [buildRow({ messageId }), buildRow()];
    const written = await Promise.all(
      [copy!, other!].map((row) => repository.createProcessings([row], { duplicatesSince: duplicatesSince() })),
    );
    expect(written).toEqual([[], [other!.id]]);
  });

  it("when the database refuses a mail of a group, rejects that mail's caller only and writes the others alone", async () => {
    const { repository, counts } = createGroupingRepository();
    const taken = buildRow();
    await createInboundRepository(database).createProcessings([taken], { duplicatesSince: duplicatesSince() });
    const good = Array.from({ length: 4 }, () => buildRow());
    const unknownEndpoint = buildRow({ deliveries: [{ id: createId("delivery"), endpointId: "ept_missing" }] });
    const takenId = buildRow({ id: taken.id });
    const rows = [good[0]!, unknownEndpoint, good[1]!, takenId, good[2]!, good[3]!];

    const outcomes = await Promise.allSettled(
      rows.map((row) => repository.createProcessings([row], { duplicatesSince: duplicatesSince() })),
    );

    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    expect(outcomes[1]).toMatchObject({ status: "rejected", reason: { code: "23503" } });
    expect(outcomes[3]).toMatchObject({ status: "rejected", reason: { code: "23505" } });
    for (const [index, row] of rows.entries()) {
      if (outcomes[index]!.status === "fulfilled") expect(outcomes[index]).toEqual({ status: "fulfilled", value: [row.id] });
    }
    expect(counts.get("hookmail_insert_processings")).toBe(1);
    expect(counts.get("hookmail_insert_one_processing")).toBe(rows.length);
    expect(repository.getAcceptGroupStats()).toMatchObject({ writes: 1, items: rows.length, retriedAlone: rows.length });
    const goodIds = good.map((row) => row.id);
    expect(await database.prisma.emailProcessing.count({ where: { id: { in: goodIds } } })).toBe(4);
    expect(await database.prisma.emailProcessing.count({ where: { id: unknownEndpoint.id } })).toBe(0);
    const kept = await database.prisma.emailProcessing.findUniqueOrThrow({ where: { id: taken.id } });
    expect(kept.messageId).toBe(taken.messageId);
  });
});
