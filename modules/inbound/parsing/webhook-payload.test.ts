import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AppError } from "@/modules/shared/errors/app-error";
import { decodeEncodedWords } from "./encoded-words";
import { MAX_MESSAGE_ID_BYTES, MAX_MIME_PARTS, MAX_SUBJECT_LENGTH } from "./parsing.constants";
import {
  buildMessageOutputs,
  buildWebhookPayload,
  describeRawMessage,
  type ParsedMessage,
  parseMail,
  summarizeMail,
  type WebhookPayload,
} from "./webhook-payload";

// A copy of shared/fixtures/mail-corpus (MIT, see its LICENSE), kept in the repository so the
// suite runs from any checkout.
const CORPUS_DIR = fileURLToPath(new URL("../../../tests/fixtures/mail-corpus", import.meta.url));

const PAYLOAD_KEYS = ["type", "timestamp", "data"];
const DATA_KEYS = [
  "id",
  "emailCallbackId",
  "address",
  "recipient",
  "tag",
  "envelope",
  "from",
  "to",
  "cc",
  "replyTo",
  "subject",
  "date",
  "messageId",
  "inReplyTo",
  "references",
  "text",
  "html",
  "headers",
  "attachments",
  "raw",
  "authentication",
  "spam",
  "flags",
  "reply",
  "threadId",
];
const ATTACHMENT_KEYS = ["filename", "contentType", "size", "contentId", "disposition", "content", "sha256", "url"];

// A 1×1 PNG, a "PDF" holding every byte value twice, and a UTF-8 CSV sent quoted-printable.
const PNG_BYTES = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const PDF_BYTES = Buffer.concat([Buffer.from("%PDF-1.4\r\n"), Buffer.from([...Array(256).keys(), ...Array(256).keys()])]);
const CSV_TEXT = "name;city\r\nZoë;Zürich\r\n";

const wrapBase64 = (bytes: Buffer) => bytes.toString("base64").replace(/.{1,76}/g, "$&\r\n");

const HANDMADE_HEADERS = [
  ["Received", "from mx.example.org by mx.hookmail.test; Sat, 21 Nov 2026 09:59:59 +0000"],
  ["Received", "from client.example.org\r\n\tby mx.example.org; Sat, 21 Nov 2026 09:59:58 +0000"],
  ["From", "=?UTF-8?Q?Bob_D=C3=BCrst?= <bob@example.org>"],
  ["To", "Alice <alice@hookmail.test>, carol@example.com"],
  ["Cc", '"Dave" <dave@example.net>, Team: erin@example.net, frank@example.net;'],
  ["Reply-To", "replies@example.org"],
  ["Subject", "=?UTF-8?B?SMOpbGxvIHfDtnJsZCDinJMg8J+OiQ==?="],
  ["Date", "Sat, 21 Nov 2026 10:59:58 +0100"],
  ["Message-ID", "<msg-1@example.org>"],
  ["In-Reply-To", "<msg-0@example.org>"],
  ["References", "<root@example.org>\r\n <msg-0@example.org>"],
  ["X-Custom-Header", "=?ISO-8859-1?Q?caf=E9?= au lait"],
  ["MIME-Version", "1.0"],
  ["Content-Type", 'multipart/mixed; boundary="mixed"'],
] as const;

const HANDMADE_MESSAGE = Buffer.from(
  [
    ...HANDMADE_HEADERS.map(([name, value]) => `${name}: ${value}`),
    "",
    "--mixed",
    'Content-Type: multipart/related; boundary="related"',
    "",
    "--related",
    'Content-Type: multipart/alternative; boundary="alt"',
    "",
    "--alt",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: quoted-printable",
    "",
    "Hello Alice, caf=C3=A9 =E2=9C=93",
    "--alt",
    "Content-Type: text/html; charset=utf-8",
    "",
    '<p>Hello <b>Alice</b> <img src="cid:logo@example.org"></p>',
    "--alt--",
    "",
    "--related",
    "Content-Type: image/png",
    "Content-Transfer-Encoding: base64",
    "Content-ID: <logo@example.org>",
    'Content-Disposition: inline; filename="logo.png"',
    "",
    wrapBase64(PNG_BYTES),
    "--related--",
    "",
    "--mixed",
    'Content-Type: application/pdf; name="report.pdf"',
    "Content-Transfer-Encoding: base64",
    'Content-Disposition: attachment; filename="report.pdf"',
    "",
    wrapBase64(PDF_BYTES),
    "--mixed",
    "Content-Type: text/csv; charset=utf-8",
    "Content-Disposition: attachment; filename*=UTF-8''donn%C3%A9es.csv",
    "Content-Transfer-Encoding: quoted-printable",
    "",
    "name;city=0D=0AZo=C3=AB;Z=C3=BCrich=0D=0A",
    "--mixed--",
    "",
  ].join("\r\n"),
);

const RECEIVED_AT = new Date("2026-11-21T10:00:00.000Z");

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const REQUEST = {
  processingId: "ep_0000000000000000000001",
  emailCallbackId: "ecb_000000000000000000001",
  address: "alice@hookmail.test",
  recipient: "Alice+News@hookmail.test",
  tag: "news",
  envelope: { from: "bob@example.org", to: ["alice+news@hookmail.test"] },
};

function buildFor(parsed: ParsedMessage, raw: Buffer): WebhookPayload {
  return buildWebhookPayload({ ...REQUEST, parsed, receivedAt: RECEIVED_AT, rawFacts: describeRawMessage(raw) });
}

/** The body the pipeline builds from the message for the same request: streamed, its pieces joined. */
async function serializeFrom(raw: Buffer): Promise<Buffer> {
  const { payloads } = await buildMessageOutputs({ raw, sender: null, receivedAt: RECEIVED_AT, payloads: [REQUEST] });
  return payloads[0]!;
}

async function buildFrom(raw: Buffer): Promise<WebhookPayload> {
  return buildFor(await parseMail(raw), raw);
}

function listCorpus(directory: string): string[] {
  return fs
    .readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => {
      const file = path.join(directory, entry.name);
      if (entry.isDirectory()) return listCorpus(file);
      return entry.name.endsWith(".eml") ? [file] : [];
    })
    .sort();
}

describe("buildWebhookPayload on a message built by hand", () => {
  it("has exactly the keys of docs/webhooks.md, in its order", async () => {
    const payload = await buildFrom(HANDMADE_MESSAGE);
    expect(Object.keys(payload)).toEqual(PAYLOAD_KEYS);
    expect(Object.keys(payload.data)).toEqual(DATA_KEYS);
    expect(Object.keys(payload.data.envelope)).toEqual(["from", "to"]);
    for (const attachment of payload.data.attachments) expect(Object.keys(attachment)).toEqual(ATTACHMENT_KEYS);
    for (const address of [payload.data.from, ...payload.data.to, ...payload.data.cc, ...payload.data.replyTo]) {
      expect(Object.keys(address ?? {})).toEqual(["address", "name"]);
    }
  });

  it("fills every field from the message, the envelope and the processing", async () => {
    const { data, ...envelope } = await buildFrom(HANDMADE_MESSAGE);
    expect(envelope).toEqual({ type: "email.received", timestamp: "2026-11-21T10:00:00.000Z" });
    expect({ ...data, headers: undefined, attachments: undefined }).toEqual({
      id: "ep_0000000000000000000001",
      emailCallbackId: "ecb_000000000000000000001",
      address: "alice@hookmail.test",
      recipient: "Alice+News@hookmail.test",
      tag: "news",
      envelope: { from: "bob@example.org", to: ["alice+news@hookmail.test"] },
      from: { address: "bob@example.org", name: "Bob Dürst" },
      to: [
        { address: "alice@hookmail.test", name: "Alice" },
        { address: "carol@example.com", name: "" },
      ],
      cc: [
        { address: "dave@example.net", name: "Dave" },
        { address: "erin@example.net", name: "" },
        { address: "frank@example.net", name: "" },
      ],
      replyTo: [{ address: "replies@example.org", name: "" }],
      subject: "Héllo wörld ✓ 🎉",
      date: "2026-11-21T09:59:58.000Z",
      messageId: "<msg-1@example.org>",
      inReplyTo: "<msg-0@example.org>",
      references: ["<root@example.org>", "<msg-0@example.org>"],
      text: "Hello Alice, café ✓",
      // the cid: link stays as sent (no data: URL)
      html: '<p>Hello <b>Alice</b> <img src="cid:logo@example.org"></p>',
      headers: undefined,
      attachments: undefined,
      raw: { size: HANDMADE_MESSAGE.length, sha256: sha256(HANDMADE_MESSAGE), url: null, expiresAt: null },
      authentication: null,
      spam: null,
      flags: { isAutoReply: false, isBounce: false, isMailingList: false },
      reply: { text: "Hello Alice, café ✓" },
      threadId: "root@example.org",
    });
  });

  it("lists the headers in their order, with their names as sent and their values unfolded and decoded", async () => {
    const { data } = await buildFrom(HANDMADE_MESSAGE);
    expect(data.headers).toEqual([
      { name: "Received", value: "from mx.example.org by mx.hookmail.test; Sat, 21 Nov 2026 09:59:59 +0000" },
      { name: "Received", value: "from client.example.org\tby mx.example.org; Sat, 21 Nov 2026 09:59:58 +0000" },
      { name: "From", value: "Bob Dürst <bob@example.org>" },
      { name: "To", value: "Alice <alice@hookmail.test>, carol@example.com" },
      { name: "Cc", value: '"Dave" <dave@example.net>, Team: erin@example.net, frank@example.net;' },
      { name: "Reply-To", value: "replies@example.org" },
      { name: "Subject", value: "Héllo wörld ✓ 🎉" },
      { name: "Date", value: "Sat, 21 Nov 2026 10:59:58 +0100" },
      { name: "Message-ID", value: "<msg-1@example.org>" },
      { name: "In-Reply-To", value: "<msg-0@example.org>" },
      { name: "References", value: "<root@example.org> <msg-0@example.org>" },
      { name: "X-Custom-Header", value: "café au lait" },
      { name: "MIME-Version", value: "1.0" },
      { name: "Content-Type", value: 'multipart/mixed; boundary="mixed"' },
    ]);
  });

  it("gives the inline image and both attachments with their metadata and their exact bytes", async () => {
    const { data } = await buildFrom(HANDMADE_MESSAGE);
    expect(data.attachments.map(({ content: _content, ...metadata }) => metadata)).toEqual([
      {
        filename: "logo.png",
        contentType: "image/png",
        size: PNG_BYTES.length,
        contentId: "<logo@example.org>",
        disposition: "inline",
        sha256: sha256(PNG_BYTES),
        url: null,
      },
      {
        filename: "report.pdf",
        contentType: "application/pdf",
        size: PDF_BYTES.length,
        contentId: null,
        disposition: "attachment",
        sha256: sha256(PDF_BYTES),
        url: null,
      },
      {
        filename: "données.csv",
        contentType: "text/csv",
        size: Buffer.byteLength(CSV_TEXT),
        contentId: null,
        disposition: "attachment",
        sha256: sha256(Buffer.from(CSV_TEXT)),
        url: null,
      },
    ]);
    const decoded = data.attachments.map((attachment) => Buffer.from(attachment.content!, "base64"));
    expect(decoded[0]!.equals(PNG_BYTES)).toBe(true);
    expect(decoded[1]!.equals(PDF_BYTES)).toBe(true);
    expect(decoded[2]!.toString("utf8")).toBe(CSV_TEXT);
  });

  it("serializes to UTF-8 JSON that reads back as the same payload", async () => {
    const payload = await buildFrom(HANDMADE_MESSAGE);
    const body = await serializeFrom(HANDMADE_MESSAGE);
    expect(Buffer.isBuffer(body)).toBe(true);
    expect(JSON.parse(body.toString("utf8"))).toEqual(payload);
    expect(body.toString("utf8")).toContain("Héllo wörld ✓ 🎉");
  });

  it("serializes to exactly the bytes of JSON.stringify of the payload", async () => {
    const payload = await buildFrom(HANDMADE_MESSAGE);
    expect((await serializeFrom(HANDMADE_MESSAGE)).equals(Buffer.from(JSON.stringify(payload), "utf8"))).toBe(true);
  });
});

describe("a message of several MiB", () => {
  // Attachments longer than one base64 slice (768 KiB) and not a multiple of 3 bytes, in a message
  // longer than one parser slice (256 KiB), with a body of non-ASCII text after them.
  const bytes = (length: number, seed: number) =>
    Buffer.from(Array.from({ length }, (_, i) => (i * 31 + seed * 7 + (i >> 8)) & 0xff));
  const LARGE = [bytes(2 * 1024 * 1024 + 1, 1), bytes(786_432 * 2 + 2, 2), bytes(0, 3)];
  const TEXT = `Zoë ✓ 🎉 ${"ligne de texte\r\n".repeat(20_000)}`;
  const message = Buffer.from(
    [
      "From: bob@example.org",
      "Subject: large",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      ...LARGE.flatMap((content, index) => [
        "--b",
        "Content-Type: application/octet-stream",
        "Content-Transfer-Encoding: base64",
        `Content-Disposition: attachment; filename="part-${index}.bin"`,
        "",
        wrapBase64(content),
      ]),
      "--b",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      TEXT,
      "--b--",
      "",
    ].join("\r\n"),
  );

  it("parses every attachment and the text intact", async () => {
    const { data } = await buildFrom(message);
    expect(data.attachments.map((attachment) => attachment.size)).toEqual(LARGE.map((content) => content.length));
    for (const [index, attachment] of data.attachments.entries()) {
      expect(Buffer.from(attachment.content!, "base64").equals(LARGE[index]!)).toBe(true);
    }
    // mailparser gives text with LF line breaks
    expect(data.text).toBe(TEXT.replace(/\r\n/g, "\n"));
  });

  it("serializes to exactly the bytes of JSON.stringify of the payload", async () => {
    const payload = await buildFrom(message);
    expect((await serializeFrom(message)).equals(Buffer.from(JSON.stringify(payload), "utf8"))).toBe(true);
  });
});

describe("buildWebhookPayload on sparse messages", () => {
  it("uses null for no From, no Date and no In-Reply-To, empty strings and lists for the rest", async () => {
    const payload = await buildFrom(Buffer.from("X-Note: nothing else\r\n\r\n"));
    expect(payload.data).toMatchObject({
      from: null,
      to: [],
      cc: [],
      replyTo: [],
      subject: "",
      date: null,
      messageId: "",
      inReplyTo: null,
      references: [],
      text: "",
      html: "",
      headers: [{ name: "X-Note", value: "nothing else" }],
      attachments: [],
    });
  });

  it("answers a Date header that is no date with null, not with the time of parsing", async () => {
    const payload = await buildFrom(Buffer.from("From: a@example.org\r\nDate: someday soon\r\n\r\nhi\r\n"));
    expect(payload.data.date).toBeNull();
  });

  it("keeps an attached message and a delivery status as attachments, byte for byte", async () => {
    const forwarded = "From: x@example.org\r\nSubject: inner\r\n\r\ninner body\r\n";
    const message = [
      "From: mailer-daemon@example.org",
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "Delivery failed.",
      "--b",
      "Content-Type: message/delivery-status",
      "",
      "Status: 5.1.1",
      "--b",
      "Content-Type: message/rfc822",
      "Content-Disposition: inline",
      "",
      forwarded,
      "--b--",
      "",
    ].join("\r\n");
    const { data } = await buildFrom(Buffer.from(message));
    expect(data.text).toBe("Delivery failed.");
    expect(
      data.attachments.map((attachment) => [attachment.contentType, Buffer.from(attachment.content!, "base64").toString()]),
    ).toEqual([
      ["message/delivery-status", "Status: 5.1.1"],
      ["message/rfc822", forwarded],
    ]);
  });

  it("keeps the declared type of an application/octet-stream attachment instead of guessing one from its name", async () => {
    const message = [
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      "--b",
      'Content-Type: application/octet-stream; name="a.pdf"',
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("%PDF").toString("base64"),
      "--b--",
      "",
    ].join("\r\n");
    const { data } = await buildFrom(Buffer.from(message));
    expect(data.attachments[0]).toMatchObject({
      filename: "a.pdf",
      contentType: "application/octet-stream",
      disposition: "attachment",
      size: 4,
    });
  });
});

describe("parseMail", () => {
  it("refuses an empty body with 400 inbound.invalid_message", async () => {
    for (const raw of [Buffer.alloc(0), Buffer.from(" \r\n\r\n")]) {
      await expect(parseMail(raw)).rejects.toMatchObject({ code: "inbound.invalid_message", httpStatus: 400 });
    }
  });

  it("turns what mailparser cannot read at all into 400 inbound.invalid_message", async () => {
    const hugeHeader = Buffer.from(`Subject: ${"a".repeat(2 * 1024 * 1024)}\r\n\r\nbody\r\n`);
    const tooManyParts = Buffer.from(
      `Content-Type: multipart/mixed; boundary=x\r\n\r\n${"--x\r\nContent-Type: text/plain\r\n\r\nhi\r\n".repeat(MAX_MIME_PARTS + 1)}--x--\r\n`,
    );
    for (const raw of [hugeHeader, tooManyParts]) {
      const error = await parseMail(raw).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "inbound.invalid_message", httpStatus: 400, isInternal: false });
    }
    // 20,001 MIME parts parsed on this thread: seconds on a busy machine.
  }, 30_000);

  it("reads a message with 1,500 attachments, past mailparser's default of 1,000 parts", async () => {
    const parts = Array.from(
      { length: 1500 },
      (_, index) =>
        `--x\r\nContent-Type: text/plain; name="f${index}.txt"\r\nContent-Disposition: attachment; filename="f${index}.txt"\r\n\r\nfile ${index}\r\n`,
    );
    const raw = Buffer.from(
      `Subject: many\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nbody\r\n${parts.join("")}--x--\r\n`,
    );
    const parsed = await parseMail(raw);
    expect(parsed.attachments).toHaveLength(1500);
    expect(parsed.attachments[1499]?.content?.toString()).toBe("file 1499");
  });

  it("gives an HTML-only message its text, also when the markup is nested 50,000 deep", async () => {
    const message = (html: string) => Buffer.from(`Subject: html\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${html}\r\n`);
    expect((await parseMail(message("<p>Hello <b>Alice</b></p><p>Bye</p>"))).text).toBe("Hello Alice\n\nBye");
    const deep = await parseMail(message(`${"<div>".repeat(50_000)}deep text${"</div>".repeat(50_000)}`));
    expect(deep.text).toBe("deep text");
    expect(deep.html).toContain("deep text");
  });
});

describe("summarizeMail", () => {
  it("takes the From address, the subject and the Message-ID for the inbox row", async () => {
    expect(summarizeMail(await parseMail(HANDMADE_MESSAGE), "envelope@example.org")).toEqual({
      fromAddress: "bob@example.org",
      subject: "Héllo wörld ✓ 🎉",
      messageId: "<msg-1@example.org>",
    });
  });

  it("falls back to the envelope sender without a readable From, and to an empty one without either", async () => {
    const parsed = await parseMail(Buffer.from("From: undisclosed\r\nSubject: hi\r\n\r\nbody\r\n"));
    expect(summarizeMail(parsed, "bounce@example.org")).toEqual({
      fromAddress: "bounce@example.org",
      subject: "hi",
      messageId: null,
    });
    expect(summarizeMail(parsed, null).fromAddress).toBe("");
  });

  it("cuts the subject at 998 characters without splitting a character, and drops NUL characters", async () => {
    const subject = `${"é".repeat(MAX_SUBJECT_LENGTH - 1)}🎉🎉`;
    const encoded = `=?UTF-8?B?${Buffer.from(subject).toString("base64")}?=`;
    const summary = summarizeMail(await parseMail(Buffer.from(`Subject: ${encoded}\r\n\r\nx\r\n`)));
    expect(Array.from(summary.subject)).toHaveLength(MAX_SUBJECT_LENGTH);
    expect(summary.subject.endsWith("é🎉")).toBe(true);
    const withNul = summarizeMail(await parseMail(Buffer.from("Subject: =?UTF-8?Q?a=00b?=\r\n\r\nx\r\n")));
    expect(withNul.subject).toBe("ab");
  });

  it("cuts an oversized Message-ID to a bounded number of bytes, the same way every time", async () => {
    const raw = Buffer.from(`Message-ID: <${"x".repeat(3000)}@example.org>\r\n\r\nx\r\n`);
    const first = summarizeMail(await parseMail(raw)).messageId ?? "";
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(MAX_MESSAGE_ID_BYTES);
    expect(summarizeMail(await parseMail(raw)).messageId).toBe(first);
  });
});

describe("decodeEncodedWords", () => {
  it.each([
    ["plain text", "plain text"],
    ["=?UTF-8?Q?caf=C3=A9_cr=C3=A8me?=", "café crème"],
    ["=?utf-8?b?w6k=?= and =?iso-8859-1?q?=E9?=", "é and é"],
    ["=?UTF-8?B?4pyT?= =?UTF-8?B?8J+OiQ==?=", "✓🎉"],
    // a multi-byte character split across two words of one charset
    ["=?UTF-8?B?4g==?= =?UTF-8?B?nJM=?=", "✓"],
    ["=?UTF-8?Q?=E2?=\t=?UTF-8?Q?=9C=93?= done", "✓ done"],
    ["=?ISO-2022-JP?B?GyRCJF4kXyRgJGEkYhsoQg==?=", "まみむめも"],
    ["=?UTF-8*en?Q?hello?=", "hello"],
    ["=?NONE?B?VEVTVA=?=", "TEST"],
    ["broken =?UTF-8?Q?word", "broken =?UTF-8?Q?word"],
  ])("decodes %j as %j", (input, expected) => {
    expect(decodeEncodedWords(input)).toBe(expected);
  });
});

describe("the mail corpus", () => {
  const files = listCorpus(CORPUS_DIR);

  it("holds the hundred-odd messages the pipeline is tested on", () => {
    expect(files.length).toBeGreaterThanOrEqual(100);
  });

  it.each(files.map((file) => [path.relative(CORPUS_DIR, file), file]))(
    "%s parses, builds a webhook payload (docs/webhooks.md) and serializes to valid JSON",
    async (_name, file) => {
      const raw = fs.readFileSync(file);
      let parsed: ParsedMessage;
      try {
        parsed = await parseMail(raw);
      } catch (error) {
        // a message that cannot be read at all is refused with the pipeline's one clear error
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ code: "inbound.invalid_message" });
        return;
      }
      const payload = buildFor(parsed, raw);
      expect(Object.keys(payload.data)).toEqual(DATA_KEYS);
      const body = await serializeFrom(raw);
      expect(body.equals(Buffer.from(JSON.stringify(payload), "utf8"))).toBe(true);
      expect(JSON.parse(body.toString("utf8"))).toEqual(payload);
      for (const attachment of payload.data.attachments) {
        expect(Object.keys(attachment)).toEqual(ATTACHMENT_KEYS);
        expect(Buffer.from(attachment.content!, "base64")).toHaveLength(attachment.size);
      }
      const summary = summarizeMail(parsed, "envelope@example.org");
      expect(Array.from(summary.subject).length).toBeLessThanOrEqual(MAX_SUBJECT_LENGTH);
      expect(`${summary.fromAddress}${summary.subject}${summary.messageId ?? ""}`).not.toContain("\u0000");
    },
  );

  it("reads the corpus' tricky cases as a receiver would expect", async () => {
    const build = async (name: string) => (await buildFrom(fs.readFileSync(path.join(CORPUS_DIR, name)))).data;
    // RFC 6532: raw UTF-8 in headers
    expect((await build("rfc6532/utf8_headers.eml")).from).toEqual({ address: "jdöe@mächine.example", name: "Jöhn Doe" });
    // an unparseable Date header gives null (mailparser alone would answer "now")
    expect((await build("error_emails/bad_date_header.eml")).date).toBeNull();
    // an attached message stays an attachment
    expect((await build("attachment_emails/attachment_message_rfc822.eml")).attachments).toMatchObject([
      { contentType: "message/rfc822", filename: "ForwardedMessage.eml", disposition: "attachment" },
    ]);
    // ISO-2022-JP subject
    expect((await build("multi_charset/japanese_iso_2022.eml")).subject).toBe("まみむめも");
    // a PDF's bytes survive base64 transfer encoding
    const pdf = (await build("attachment_emails/attachment_pdf.eml")).attachments[0]!;
    expect(Buffer.from(pdf.content!, "base64").subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });
});
