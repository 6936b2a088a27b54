// What a filter reads of a mail and when it holds (docs/webhooks.md: Filters).
import { describe, expect, it } from "vitest";
import { FILTER_READ_LIMITS } from "@/modules/endpoints/endpoint-filter.constants";
import type { EndpointFilter, FilterCondition } from "@/modules/endpoints/endpoint-filter.schemas";
import type { MailAuthentication } from "@/modules/mail-checks/mail-auth.models";
import { compileFilter, evaluateFilter, type FilterFacts, toFilterFacts } from "./endpoint-filter";
import { parseMail } from "./webhook-payload";

const AUTHENTICATION: MailAuthentication = {
  spf: { result: "pass", domain: "example.org" },
  dkim: [],
  dmarc: { result: "pass", policy: "reject", domain: "example.org", reason: null },
  arc: { result: "none" },
};

function buildRaw({
  headers = [],
  text = null,
  attachments = [],
}: {
  headers?: string[];
  text?: string | null;
  attachments?: { filename: string; contentType: string }[];
}): Buffer {
  const parts = [
    ...(text === null ? [] : [`Content-Type: text/plain; charset=utf-8\r\n\r\n${text}\r\n`]),
    ...attachments.map(
      ({ filename, contentType }) =>
        `Content-Type: ${contentType}\r\nContent-Disposition: attachment; filename="${filename}"\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n`,
    ),
  ];
  const body = `${parts.map((part) => `--b\r\n${part}`).join("")}--b--\r\n`;
  const head = [...headers, "MIME-Version: 1.0", 'Content-Type: multipart/mixed; boundary="b"'].join("\r\n");
  return Buffer.from(`${head}\r\n\r\n${body}`);
}

async function factsOf(
  parts: Parameters<typeof buildRaw>[0],
  extra: { recipient?: string | null; authentication?: MailAuthentication | null; spam?: { score: number } | null } = {},
): Promise<FilterFacts> {
  const parsed = await parseMail(buildRaw(parts));
  return toFilterFacts({ parsed, recipient: null, authentication: null, spam: null, ...extra });
}

const invoiceFacts = () =>
  factsOf(
    {
      headers: [
        'From: "Bob Example" <Bob.Billing@Example.org>',
        "To: alice@hookmail.test",
        "Subject: Invoice 2026-11 for ACME",
        "X-Mailer: Billing-Bot/2.1",
        "X-Tag: first",
        "X-Tag: Second",
      ],
      text: "Hello Alice,\r\nyour invoice is attached.\r\nTotal: 42 EUR",
      attachments: [
        { filename: "logo.png", contentType: "image/png" },
        { filename: "Invoice-2026.PDF", contentType: "application/pdf" },
      ],
    },
    { recipient: "Orders+EU@hookmail.test", authentication: AUTHENTICATION, spam: { score: 3.5 } },
  );

const holds = (facts: FilterFacts, ...conditions: FilterCondition[]) => evaluateFilter({ match: "all", conditions }, facts);

describe("each text field with each operator, ignoring case", () => {
  // For each field: a value that holds and one that does not, per operator.
  const cases: [FilterCondition["field"], Record<string, [string, string]>][] = [
    [
      "from",
      {
        contains: ["BILLING@", "bob example"],
        equals: ["bob.billing@example.org", "Bob Example"],
        startsWith: ["BOB.", "billing"],
        endsWith: ["@EXAMPLE.ORG", "example"],
        matches: ["^bob\\.[a-z]+@example\\.org$", '^"?bob example'],
      },
    ],
    [
      "to",
      {
        contains: ["+eu@", "alice"],
        equals: ["orders+eu@HOOKMAIL.test", "orders@hookmail.test"],
        startsWith: ["ORDERS+", "alice"],
        endsWith: ["@hookmail.TEST", ".org"],
        matches: ["^orders\\+\\w+@", "^alice@"],
      },
    ],
    [
      "subject",
      {
        contains: ["INVOICE", "receipt"],
        equals: ["invoice 2026-11 for acme", "invoice"],
        startsWith: ["invoice ", "for"],
        endsWith: ["acme", "2026"],
        matches: ["^invoice \\d{4}-\\d{2}\\b", "^receipt"],
      },
    ],
    [
      "text",
      {
        contains: ["YOUR INVOICE", "refund"],
        equals: ["hello alice,\nyour invoice is attached.\ntotal: 42 eur", "hello alice"],
        startsWith: ["HELLO", "your"],
        endsWith: ["42 eur", "attached."],
        matches: ["(?m)^total: \\d+ eur$", "^total"],
      },
    ],
    [
      "header:x-mailer",
      {
        contains: ["bot/", "outlook"],
        equals: ["billing-bot/2.1", "billing-bot"],
        startsWith: ["BILLING", "bot"],
        endsWith: ["/2.1", "/3"],
        matches: ["^billing-bot/\\d+\\.\\d+$", "^outlook"],
      },
    ],
    [
      "attachment.filename",
      {
        contains: ["INVOICE", "receipt"],
        equals: ["invoice-2026.pdf", "invoice.pdf"],
        startsWith: ["LOGO", "report"],
        endsWith: [".pdf", ".docx"],
        matches: ["\\.pdf$", "\\.docx?$"],
      },
    ],
    [
      "attachment.contentType",
      {
        contains: ["PDF", "zip"],
        equals: ["APPLICATION/PDF", "application/zip"],
        startsWith: ["image/", "text/"],
        endsWith: ["/png", "/gif"],
        matches: ["^application/(pdf|zip)$", "^text/"],
      },
    ],
    [
      "authentication.dmarc",
      {
        contains: ["PAS", "fail"],
        equals: ["PASS", "fail"],
        startsWith: ["p", "f"],
        endsWith: ["ss", "il"],
        matches: ["^pass$", "^(fail|none)$"],
      },
    ],
  ];
  for (const [field, operators] of cases) {
    for (const [op, [holding, failing]] of Object.entries(operators)) {
      it(`${field} ${op}: holds for "${holding}", not for "${failing}"`, async () => {
        const facts = await invoiceFacts();
        const condition = (value: string) => ({ field, op, value }) as FilterCondition;
        expect(holds(facts, condition(holding))).toBe(true);
        expect(holds(facts, condition(failing))).toBe(false);
      });
    }
  }
});

describe("spam.score", () => {
  it("holds for gt below the score and lt above it, strictly", async () => {
    const facts = await invoiceFacts();
    const score = (op: "gt" | "lt", value: number) => holds(facts, { field: "spam.score", op, value });
    expect([score("gt", 3), score("gt", 3.5), score("lt", 5), score("lt", 3.5)]).toEqual([true, false, true, false]);
  });

  it("never holds when the mail has no score (no spam engine, or it did not answer)", async () => {
    const facts = await factsOf({ headers: ["Subject: x"], text: "x" });
    expect(holds(facts, { field: "spam.score", op: "lt", value: 1000 })).toBe(false);
    expect(holds(facts, { field: "spam.score", op: "gt", value: -1000 })).toBe(false);
  });
});

describe("all and any", () => {
  const subjectIsInvoice: FilterCondition = { field: "subject", op: "contains", value: "invoice" };
  const fromBank: FilterCondition = { field: "from", op: "endsWith", value: "@bank.example" };

  it("all holds when every condition does; any when one does", async () => {
    const facts = await invoiceFacts();
    expect(evaluateFilter({ match: "all", conditions: [subjectIsInvoice, fromBank] }, facts)).toBe(false);
    expect(evaluateFilter({ match: "any", conditions: [subjectIsInvoice, fromBank] }, facts)).toBe(true);
    expect(evaluateFilter({ match: "any", conditions: [fromBank] }, facts)).toBe(false);
    expect(evaluateFilter({ match: "all", conditions: [subjectIsInvoice] }, facts)).toBe(true);
  });

  it("one compiled filter answers for many mails", async () => {
    const filter = compileFilter({ match: "any", conditions: [{ field: "subject", op: "matches", value: "^invoice\\b" }] });
    const subjects = ["Invoice 12", "Your invoice", "INVOICE"];
    const answers = await Promise.all(
      subjects.map(async (subject) => filter(await factsOf({ headers: [`Subject: ${subject}`] }))),
    );
    expect(answers).toEqual([true, false, true]);
  });
});

describe("fields with several values", () => {
  it("an attachment condition holds when any attachment matches", async () => {
    const facts = await invoiceFacts();
    expect(holds(facts, { field: "attachment.contentType", op: "equals", value: "application/pdf" })).toBe(true);
    expect(holds(facts, { field: "attachment.contentType", op: "equals", value: "image/png" })).toBe(true);
    expect(holds(facts, { field: "attachment.filename", op: "endsWith", value: ".png" })).toBe(true);
  });

  it("a header condition holds when any field of that name matches, its name in any case", async () => {
    const facts = await invoiceFacts();
    expect(holds(facts, { field: "header:X-TAG", op: "equals", value: "second" })).toBe(true);
    expect(holds(facts, { field: "header:x-tag", op: "equals", value: "first" })).toBe(true);
    expect(holds(facts, { field: "header:x-tag", op: "equals", value: "third" })).toBe(false);
  });

  it(`reads the first ${FILTER_READ_LIMITS.headerFields} fields of a name and the first ${FILTER_READ_LIMITS.attachments} attachments`, async () => {
    const count = Math.max(FILTER_READ_LIMITS.headerFields, FILTER_READ_LIMITS.attachments) + 1;
    const facts = await factsOf({
      headers: Array.from({ length: count }, (_, index) => `X-Hop: hop-${index + 1}`),
      attachments: Array.from({ length: count }, (_, index) => ({
        filename: `f${index + 1}.bin`,
        contentType: "application/octet-stream",
      })),
    });
    const hop = (index: number) => holds(facts, { field: "header:x-hop", op: "equals", value: `hop-${index}` });
    const file = (index: number) => holds(facts, { field: "attachment.filename", op: "equals", value: `f${index}.bin` });
    expect([hop(FILTER_READ_LIMITS.headerFields), hop(FILTER_READ_LIMITS.headerFields + 1)]).toEqual([true, false]);
    expect([file(FILTER_READ_LIMITS.attachments), file(FILTER_READ_LIMITS.attachments + 1)]).toEqual([true, false]);
  });
});

describe("a value the mail does not have", () => {
  const OPERATORS = ["contains", "equals", "startsWith", "endsWith", "matches"] as const;
  const FIELDS = [
    "from",
    "to",
    "subject",
    "text",
    "header:x-mailer",
    "attachment.filename",
    "attachment.contentType",
    "authentication.dmarc",
  ] as const;

  it("makes the condition false whatever its operator, even a pattern that matches anything", async () => {
    // No From, no Subject, no text part, no attachment, no recipient, no checks.
    const facts = await factsOf({ headers: ["Message-ID: <bare@example.org>"] });
    for (const field of FIELDS) {
      for (const op of OPERATORS) {
        const value = op === "matches" ? ".*" : "a";
        expect(holds(facts, { field, op, value }), `${field} ${op}`).toBe(false);
      }
    }
  });

  it("holds for an empty header that is there (it matches ^$); an empty Subject counts as none", async () => {
    const facts = await factsOf({ headers: ["Subject: ", "X-Empty: "] });
    expect(holds(facts, { field: "header:x-empty", op: "matches", value: "^$" })).toBe(true);
    expect(holds(facts, { field: "subject", op: "matches", value: "^$" })).toBe(false);
  });
});

describe("what a condition reads of a long mail", () => {
  const filterOf = (...conditions: FilterCondition[]): EndpointFilter => ({ match: "all", conditions });
  const contains = filterOf({ field: "text", op: "contains", value: "needle" });
  const matches = filterOf({ field: "text", op: "matches", value: "needle" });
  /** A mail whose text has "needle" ending at this many characters. */
  const needleEndingAt = (end: number) => factsOf({ text: `${"x".repeat(end - "needle".length)}needle` });

  it(`text conditions read the first ${FILTER_READ_LIMITS.textChars} characters; matches the first ${FILTER_READ_LIMITS.patternInputChars}`, async () => {
    const { textChars, patternInputChars } = FILTER_READ_LIMITS;
    expect(evaluateFilter(contains, await needleEndingAt(textChars))).toBe(true);
    expect(evaluateFilter(contains, await needleEndingAt(textChars + 1))).toBe(false);
    expect(evaluateFilter(matches, await needleEndingAt(patternInputChars))).toBe(true);
    expect(evaluateFilter(matches, await needleEndingAt(patternInputChars + 1))).toBe(false);
  });
});
