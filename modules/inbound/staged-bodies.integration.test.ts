// A large message's webhook bodies staged while they are made (docs/architecture.md: Large values):
// through the real parse pool and repository, on a fresh, migrated database. The thread never posts
// a piece over one slice, each row's payload is exactly the body of the small path, and nothing
// stays staged after the write, after a refused parse or after a failed write. A message spooled to
// a file as it arrived gives the same rows as the same bytes in memory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import { VALUE_SLICE_BYTES } from "@/modules/db/sliced-values";
import type { UploadSlice } from "@/modules/db/value-uploads";
import { createId } from "@/modules/shared/ids";
import { seedEmailCallback, seedUser } from "@/tests/support/seed";
import { createTestDatabase } from "@/tests/support/test-database";
import { createInboundRepository, type InboundRepository } from "./inbound.repository";
import { acceptMessage } from "./inbound.usecases";
import { createParsePool, type MessageParser } from "./parse-pool";
import type { SpooledMessage } from "./parsing/message-source";
import { buildMessageOutputs } from "./parsing/webhook-payload";

const rules = { emailDomains: ["hookmail.test"] };
const NOW = new Date("2026-11-28T10:00:00.000Z");
const MIB = 1024 * 1024;

let database: Database;
let userId: string;
let counter = 0;
const pools: MessageParser[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  userId = createId("user");
  await seedUser(database, { id: userId });
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  await database?.close();
});

function startPool(options: Parameters<typeof createParsePool>[0] = {}) {
  const pool = createParsePool(options);
  pools.push(pool);
  return pool;
}

async function createCallback() {
  counter += 1;
  return seedEmailCallback(database, { userId, username: `staged${counter}`, webhookUrl: "https://hooks.example.com/in" });
}

const bytes = (length: number, seed: number) =>
  Buffer.from(Array.from({ length }, (_, i) => (i * 131 + seed * 17 + (i >> 9)) & 0xff));

/** A message of about `attachmentBytes` × 4/3 with three attachments (sizes 0, 1 and 2 over a multiple of 3) and text last. */
function buildMessage(to: string[], attachmentBytes: number): Buffer {
  const third = Math.floor(attachmentBytes / 9) * 3;
  const attachments = [third, third + 1, third + 2].map((size, index) => bytes(size, index));
  return Buffer.from(
    [
      "From: Bob <bob@example.org>",
      `To: ${to.join(", ")}`,
      "Subject: staged ✓",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      ...attachments.flatMap((content, index) => [
        "--b",
        "Content-Type: application/octet-stream",
        "Content-Transfer-Encoding: base64",
        `Content-Disposition: attachment; filename="f-${index}.bin"`,
        "",
        content.toString("base64").replace(/.{1,76}/g, "$&\r\n"),
      ]),
      "--b",
      "Content-Type: text/plain; charset=utf-8",
      "",
      `Zoë ${"line\r\n".repeat(1000)}`,
      "--b--",
      "",
    ].join("\r\n"),
  );
}

/** The repository, recording the slices staged with their size (and failing the `failAt`-th one when asked). */
function recordStaging(failAt?: number): {
  repository: InboundRepository;
  staged: (Omit<UploadSlice, "bytes"> & { byteLength: number })[];
} {
  const real = createInboundRepository(database);
  const staged: (Omit<UploadSlice, "bytes"> & { byteLength: number })[] = [];
  const repository: InboundRepository = {
    ...real,
    stageSlice: async ({ bytes, ...slice }) => {
      // Its memory goes back to the parsing thread once written: its size is noted now.
      staged.push({ ...slice, byteLength: bytes.byteLength });
      if (staged.length === failAt) throw new Error("the database went away");
      await real.stageSlice({ ...slice, bytes });
    },
  };
  return { repository, staged };
}

/** Each row holds the raw message, and exactly the body the small path builds for its address. */
async function expectRowsOf(processingIds: string[], callbacks: { id: string; username: string }[], raw: Buffer) {
  const rows = await database.prisma.emailProcessing.findMany({ where: { id: { in: processingIds } } });
  const requests = rows.map((row) => {
    const address = `${callbacks.find((callback) => callback.id === row.emailCallbackId)!.username}@hookmail.test`;
    const envelope = { from: "bob@example.org", to: [address] };
    return { processingId: row.id, emailCallbackId: row.emailCallbackId, address, recipient: address, tag: null, envelope };
  });
  const expected = await buildMessageOutputs({ raw, sender: "bob@example.org", receivedAt: NOW, payloads: requests });
  for (const [index, row] of rows.entries()) {
    expect(Buffer.from(row.rawMessage ?? []).equals(raw)).toBe(true);
    expect(Buffer.from(row.payload ?? []).equals(expected.payloads[index]!)).toBe(true);
  }
}

const countStagedSlices = async () =>
  (await database.executor.query<{ count: number }>("SELECT count(*)::int AS count FROM value_upload_slice"))[0]!.count;

describe("a large message's bodies staged while parsed", () => {
  it("posts no piece over one slice, writes each row's payload as exactly the small path's body, and leaves nothing staged", async () => {
    const callbacks = [await createCallback(), await createCallback()];
    const addresses = callbacks.map((callback) => `${callback.username}@hookmail.test`);
    const raw = buildMessage(addresses, 3 * MIB);
    const copy = Buffer.from(raw);
    const { repository, staged } = recordStaging();

    const accepted = await acceptMessage({
      raw,
      envelope: { from: "bob@example.org", to: addresses },
      repository,
      rules,
      now: NOW,
      parser: startPool(),
    });

    expect(accepted.accepted).toBe(2);
    expect(staged.length).toBeGreaterThan(2 * Math.ceil((4 * MIB) / VALUE_SLICE_BYTES));
    expect(Math.max(...staged.map((slice) => slice.byteLength))).toBeLessThanOrEqual(VALUE_SLICE_BYTES);
    expect(new Set(staged.map((slice) => slice.uploadId)).size).toBe(2);
    expect(await countStagedSlices()).toBe(0);
    await expectRowsOf(accepted.processingIds, callbacks, copy);
  }, 120_000);

  it("deletes what was staged when the parse is refused midway (the time limit)", async () => {
    const callback = await createCallback();
    const address = `${callback.username}@hookmail.test`;
    const { repository, staged } = recordStaging();

    // A 2 MiB attachment, whose body slices are staged within milliseconds, then 24 MiB of HTML-only
    // markup, which takes seconds of processor time to read and turn into text and stages nothing
    // meanwhile: the limit (processor time, however loaded the machine) falls after the first slices.
    const raw = Buffer.from(
      [
        "From: Bob <bob@example.org>",
        `To: ${address}`,
        "Subject: refused midway",
        'Content-Type: multipart/mixed; boundary="b"',
        "",
        "--b",
        "Content-Type: application/octet-stream",
        'Content-Disposition: attachment; filename="first.bin"',
        "Content-Transfer-Encoding: base64",
        "",
        bytes(2 * MIB, 1)
          .toString("base64")
          .replace(/.{76}/g, "$&\r\n"),
        "--b",
        "Content-Type: text/html; charset=utf-8",
        "",
        "<div><p>markup <b>to read</b></p></div>\r\n".repeat((24 * MIB) / 40),
        "--b--",
        "",
      ].join("\r\n"),
    );
    const refused = acceptMessage({
      raw,
      envelope: { from: "bob@example.org", to: [address] },
      repository,
      rules,
      parser: startPool({ timeLimitMs: 1000 }),
    });

    await expect(refused).rejects.toMatchObject({ code: "inbound.message_too_complex" });
    expect(staged.length).toBeGreaterThan(0);
    expect(await countStagedSlices()).toBe(0);
    expect(await database.prisma.emailProcessing.count({ where: { emailCallbackId: callback.id } })).toBe(0);
  }, 120_000);

  it("deletes what was staged when a slice cannot be written, and writes no row", async () => {
    const callback = await createCallback();
    const address = `${callback.username}@hookmail.test`;
    const { repository, staged } = recordStaging(4);

    const failed = acceptMessage({
      raw: buildMessage([address], 3 * MIB),
      envelope: { from: "bob@example.org", to: [address] },
      repository,
      rules,
      parser: startPool(),
    });

    await expect(failed).rejects.toThrow("the database went away");
    expect(staged.length).toBe(4);
    expect(await countStagedSlices()).toBe(0);
    expect(await database.prisma.emailProcessing.count({ where: { emailCallbackId: callback.id } })).toBe(0);
  }, 120_000);
});

/** The message written to a file, as the SMTP listener spools a large one. */
function spool(raw: Buffer): SpooledMessage {
  const spoolPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-spooled-")), "message.eml");
  fs.writeFileSync(spoolPath, raw);
  return { spoolPath, byteLength: raw.length };
}

describe("a message spooled to a file as it arrived", () => {
  it("is parsed from its file and staged from it: its rows hold what the same bytes in memory give, and nothing stays staged", async () => {
    const callbacks = [await createCallback(), await createCallback()];
    const addresses = callbacks.map((callback) => `${callback.username}@hookmail.test`);
    const raw = buildMessage(addresses, 3 * MIB);
    const { repository } = recordStaging();

    const accepted = await acceptMessage({
      raw: spool(raw),
      envelope: { from: "bob@example.org", to: addresses },
      repository,
      rules,
      now: NOW,
      parser: startPool(),
    });

    expect(accepted.accepted).toBe(2);
    expect(await countStagedSlices()).toBe(0);
    await expectRowsOf(accepted.processingIds, callbacks, raw);
  }, 120_000);

  it("is refused as no mail when the file holds only blank lines, and what was staged from it is deleted", async () => {
    const callback = await createCallback();
    const address = `${callback.username}@hookmail.test`;

    const refused = acceptMessage({
      raw: spool(Buffer.from(" \r\n\t".repeat(MIB))),
      envelope: { from: "bob@example.org", to: [address] },
      repository: createInboundRepository(database),
      rules,
      parser: startPool(),
    });

    await expect(refused).rejects.toMatchObject({ code: "inbound.invalid_message" });
    expect(await countStagedSlices()).toBe(0);
    expect(await database.prisma.emailProcessing.count({ where: { emailCallbackId: callback.id } })).toBe(0);
  }, 120_000);
});
