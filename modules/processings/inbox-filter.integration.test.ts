// The inbox filtered by status and by a text, through its route handler on a fresh database: the
// page and the total are those of the rows kept, the text matches sender or subject anywhere and
// case-insensitively with its wildcard characters taken literally, bad filters answer 400
// request.invalid_query, and another user's address is not found.

import { describe, expect, it } from "vitest";
import * as processingsRoute from "@/app/api/email-callbacks/[emailCallbackId]/processings/route";
import { createId } from "@/modules/shared/ids";
import { setUpOwnerAndStranger, type TestUser } from "@/tests/support/route-test-app";
import { seedEmailCallback } from "@/tests/support/seed";

const suite = setUpOwnerAndStranger("inbox filter");

const START = Date.parse("2026-11-20T08:00:00.000Z");

type Row = { fromAddress: string; subject: string; status?: string };

/** One row per entry (delivered unless it says otherwise), a minute apart, the first the oldest; answers their ids in that order. */
async function seedInbox(rows: Row[], user: TestUser = suite.owner) {
  const { id: emailCallbackId } = await seedEmailCallback(suite.app.database, { userId: user.userId });
  const ids = rows.map(() => createId("emailProcessing"));
  await suite.app.database.prisma.emailProcessing.createMany({
    data: rows.map((row, index) => ({
      id: ids[index]!,
      emailCallbackId,
      recipient: "inbox@hookmail.test",
      error: row.status === "error" ? "webhook-failed" : null,
      createdAt: new Date(START + index * 60_000),
      ...row,
      status: row.status ?? "success",
    })),
  });
  return { emailCallbackId, ids };
}

const list = (emailCallbackId: string, query: Record<string, string>, headers: Record<string, string> = suite.owner.headers) =>
  suite.app.call(processingsRoute.GET, {
    path: `/api/email-callbacks/${emailCallbackId}/processings?${new URLSearchParams(query).toString()}`,
    headers,
    params: { emailCallbackId },
  });

const subjectsOf = (body: Record<string, any> | null) => body?.emailProcessings.map((row: Row) => row.subject);

const MIXED: Row[] = [
  { fromAddress: "alice@example.org", subject: "Invoice 1", status: "success" },
  { fromAddress: "bob@example.org", subject: "Invoice 2", status: "error" },
  { fromAddress: "carol@shop.example", subject: "Welcome", status: "error" },
  { fromAddress: "dave@example.org", subject: "Order shipped", status: "not-processed" },
  { fromAddress: "erin@example.org", subject: "invoice 3", status: "pending" },
  { fromAddress: "frank@example.org", subject: "Newsletter", status: "error" },
];

describe("GET /api/email-callbacks/{id}/processings filtered", () => {
  it("keeps only the rows of the asked status, newest first, with their count as the total", async () => {
    const { emailCallbackId } = await seedInbox(MIXED);
    const response = await list(emailCallbackId, { status: "error" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ emailProcessingsCount: 3, pageIndex: 0, pageSize: 15 });
    expect(subjectsOf(response.body)).toEqual(["Newsletter", "Welcome", "Invoice 2"]);
    const newest = MIXED.at(-1); // Newsletter from frank@example.org, an error
    expect(response.body?.emailProcessings[0]).toEqual({
      id: expect.stringMatching(/^ep_/),
      ...newest,
      recipient: "inbox@hookmail.test",
      error: "webhook-failed",
      webhookResponseStatusCode: null,
      createdAt: new Date(START + 5 * 60_000).toISOString(),
    });
    for (const status of ["success", "not-processed", "pending"]) {
      expect((await list(emailCallbackId, { status })).body?.emailProcessingsCount).toBe(1);
    }
  });

  it("matches the text anywhere in the sender or the subject, whatever its case, and combines it with the status", async () => {
    const { emailCallbackId } = await seedInbox(MIXED);
    expect(subjectsOf((await list(emailCallbackId, { q: "INVOICE" })).body)).toEqual(["invoice 3", "Invoice 2", "Invoice 1"]);
    expect(subjectsOf((await list(emailCallbackId, { q: "shop.EXAMPLE" })).body)).toEqual(["Welcome"]);
    expect(subjectsOf((await list(emailCallbackId, { q: "  ship  " })).body)).toEqual(["Order shipped"]);
    const both = await list(emailCallbackId, { q: "invoice", status: "error" });
    expect(both.body).toMatchObject({ emailProcessingsCount: 1 });
    expect(subjectsOf(both.body)).toEqual(["Invoice 2"]);
    expect((await list(emailCallbackId, { q: "nobody-sent-this" })).body).toMatchObject({
      emailProcessings: [],
      emailProcessingsCount: 0,
    });
  });

  it("takes %, _ and \\ in the text as themselves, not as wildcards", async () => {
    const { emailCallbackId } = await seedInbox([
      { fromAddress: "a@example.org", subject: "Save 50% today" },
      { fromAddress: "b@example.org", subject: "Save 50 euros" },
      { fromAddress: "first_last@example.org", subject: "Hello" },
      { fromAddress: "firstXlast@example.org", subject: "Hello again" },
      { fromAddress: "c@example.org", subject: "C:\\temp\\report" },
      { fromAddress: "d@example.org", subject: "C:tempreport" },
    ]);
    expect(subjectsOf((await list(emailCallbackId, { q: "50%" })).body)).toEqual(["Save 50% today"]);
    expect(subjectsOf((await list(emailCallbackId, { q: "%" })).body)).toEqual(["Save 50% today"]);
    expect(subjectsOf((await list(emailCallbackId, { q: "first_last" })).body)).toEqual(["Hello"]);
    expect(subjectsOf((await list(emailCallbackId, { q: "_" })).body)).toEqual(["Hello"]);
    expect(subjectsOf((await list(emailCallbackId, { q: "\\temp\\" })).body)).toEqual(["C:\\temp\\report"]);
    expect((await list(emailCallbackId, { q: "\\" })).body?.emailProcessingsCount).toBe(1);
  });

  it("pages the filtered rows: each once, newest first, with the same total on every page", async () => {
    const rows = Array.from({ length: 23 }, (_, index) => ({
      fromAddress: `sender${index}@example.org`,
      subject: `Mail ${index}`,
      status: index % 2 === 0 ? "error" : "success",
    }));
    const { emailCallbackId, ids } = await seedInbox(rows);
    const expected = ids.filter((_, index) => index % 2 === 0).reverse();
    const seen: string[] = [];
    for (let pageIndex = 0; pageIndex < 3; pageIndex += 1) {
      const page = await list(emailCallbackId, { status: "error", pageSize: "5", pageIndex: String(pageIndex) });
      expect(page.body).toMatchObject({ emailProcessingsCount: 12, pageIndex, pageSize: 5 });
      seen.push(...(page.body?.emailProcessings ?? []).map((row: { id: string }) => row.id));
    }
    expect(seen).toEqual(expected);
    expect((await list(emailCallbackId, { status: "error", pageSize: "5", pageIndex: "3" })).body).toMatchObject({
      emailProcessings: [],
      emailProcessingsCount: 12,
    });
  });

  it("treats an empty status or text as no filter (the unfiltered inbox and its total)", async () => {
    const { emailCallbackId } = await seedInbox(MIXED);
    const response = await list(emailCallbackId, { status: "", q: "   " });
    expect(response.status).toBe(200);
    expect(response.body?.emailProcessingsCount).toBe(MIXED.length);
  });

  it("answers 400 request.invalid_query for an unknown status or a text over 200 characters", async () => {
    const { emailCallbackId } = await seedInbox(MIXED);
    for (const query of [{ status: "failed" }, { status: "ERROR" }, { q: "x".repeat(201) }] as Record<string, string>[]) {
      const response = await list(emailCallbackId, query);
      expect(response.status).toBe(400);
      expect(response.body?.error.code).toBe("request.invalid_query");
    }
    expect((await list(emailCallbackId, { q: ` ${"x".repeat(200)} ` })).status).toBe(200);
  });

  it("answers 404 email_callback.not_found for another user's address, filtered or not, and serves the owner's API key", async () => {
    const { emailCallbackId } = await seedInbox(MIXED);
    for (const query of [{ status: "error" }, { q: "invoice" }, {}] as Record<string, string>[]) {
      const response = await list(emailCallbackId, query, suite.stranger.headers);
      expect(response.status).toBe(404);
      expect(response.body?.error.code).toBe("email_callback.not_found");
    }
    expect((await list(emailCallbackId, { status: "error" }, suite.ownerKey)).body?.emailProcessingsCount).toBe(3);
  });
});

describe("the inbox search's index (docs/architecture.md: The data)", () => {
  it("exists where pg_trgm does, and serves the search's condition, wildcards escaped", async () => {
    const { executor } = suite.app.database;
    const [extension] = await executor.query<{ extname: string }>(`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`);
    expect(extension, "pg_trgm ships with the test's PostgreSQL server").toBeDefined();
    const indexes = await executor.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE indexname = 'email_processing_search_trgm_idx'`,
    );
    expect(indexes[0]?.indexdef).toMatch(/USING gin \("fromAddress" gin_trgm_ops, subject gin_trgm_ops\)/);

    // The condition as the repository writes it; with sequential scans and the other indexes out of
    // the way, the planner can only answer it from the trigram index.
    const plan = await executor.withConnection(async (connection) => {
      await connection.exec("BEGIN; SET LOCAL enable_seqscan = off");
      try {
        const rows = await connection.query<{ "QUERY PLAN": string }>(
          `EXPLAIN SELECT id FROM email_processing
           WHERE ("fromAddress" ILIKE $1 ESCAPE '\\' OR subject ILIKE $1 ESCAPE '\\')`,
          ["%100\\%%"],
        );
        return rows.map((row) => row["QUERY PLAN"]).join("\n");
      } finally {
        await connection.exec("ROLLBACK");
      }
    });
    expect(plan).toContain("email_processing_search_trgm_idx");
  });
});
