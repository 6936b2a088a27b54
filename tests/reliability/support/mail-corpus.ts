// Messages for the bad-input test: the fixture corpus (tests/fixtures/mail-corpus, real-world and
// malformed mail), exotic messages generated here for what the corpus lacks (1,000 attachments,
// huge header lines, 8-bit headers, deep nesting, broken boundaries, NULs, …), and seeded random
// mutations of valid messages (byte flips, truncation, duplicated or removed boundary lines,
// inserted NULs and long lines, …).
import fs from "node:fs";
import path from "node:path";

export type CorpusMessage = { name: string; raw: Buffer };

export const MAIL_CORPUS_DIR = path.resolve(import.meta.dirname, "../../fixtures/mail-corpus");

const NOT_MAIL = new Set(["README.md", "LICENSE", ".gitattributes"]);

/** Every file of the corpus (any name: the corpus holds an empty one too), by relative path. */
export function loadFixtureCorpus(directory = MAIL_CORPUS_DIR): CorpusMessage[] {
  const messages: CorpusMessage[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && !NOT_MAIL.has(entry.name)) {
        messages.push({ name: `corpus/${path.relative(directory, full)}`, raw: fs.readFileSync(full) });
      }
    }
  };
  walk(directory);
  return messages;
}

/** The corpus folders whose messages are well-formed enough to be the bases of mutations. */
export const MUTATION_BASE_FOLDERS = ["rfc2822", "plain_emails", "mime_emails", "attachment_emails", "multi_charset", "rfc6532"];

// ---------------------------------------------------------------------------------------------
// A seeded PRNG (mulberry32): the same seed gives the same mutations.

export type Random = () => number;

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const randomInt = (random: Random, below: number) => Math.floor(random() * below);

// ---------------------------------------------------------------------------------------------
// Generated messages

const CRLF = "\r\n";
const join = (...parts: (string | Buffer)[]) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : part)));
const lines = (...texts: string[]) => texts.join(CRLF);
const latin1 = (text: string) => Buffer.from(text, "latin1");

function headers({ subject, messageId, extra = [] }: { subject: string; messageId: string; extra?: string[] }): string {
  return lines(
    "From: Exotic Sender <sender@example.org>",
    "To: Someone <someone@hookmail.test>",
    `Subject: ${subject}`,
    "Date: Sat, 21 Nov 2026 10:00:00 +0000",
    `Message-ID: <${messageId}@bad-input.hookmail.test>`,
    ...extra,
  );
}

function multipart(boundary: string, parts: string[], { close = true }: { close?: boolean } = {}): string {
  return `${parts.map((part) => `--${boundary}${CRLF}${part}${CRLF}`).join("")}${close ? `--${boundary}--${CRLF}` : ""}`;
}

function nestedRfc822(depth: number): string {
  let inner = lines(headers({ subject: "innermost", messageId: "nested-innermost" }), "", "The innermost message.", "");
  for (let level = depth - 1; level >= 0; level -= 1) {
    inner = lines(
      headers({
        subject: `level ${level}`,
        messageId: `nested-${depth}-${level}`,
        extra: ["MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="lvl${level}"`],
      }),
      "",
      multipart(`lvl${level}`, [
        lines("Content-Type: text/plain", "", `Level ${level} wraps a message.`),
        lines("Content-Type: message/rfc822", 'Content-Disposition: attachment; filename="inner.eml"', "", inner),
      ]),
    );
  }
  return inner;
}

function nestedMultipart(depth: number): string {
  let body = lines("Content-Type: text/plain", "", "deepest part");
  for (let level = depth - 1; level >= 0; level -= 1) {
    body = lines(`Content-Type: multipart/mixed; boundary="d${level}"`, "", multipart(`d${level}`, [body]));
  }
  return lines(
    headers({ subject: `multipart nested ${depth} deep`, messageId: `multipart-${depth}`, extra: ["MIME-Version: 1.0"] }),
    body,
  );
}

function pseudoRandomBytes(size: number, seed: number): Buffer {
  const random = createRandom(seed);
  const bytes = Buffer.allocUnsafe(size);
  for (let index = 0; index < size; index += 1) bytes[index] = randomInt(random, 256);
  return bytes;
}

/** What the fixture corpus lacks, built here. `oversizeBytes`: the size of the one message meant to be over the limit. */
export function generateExoticMessages({ oversizeBytes }: { oversizeBytes: number }): CorpusMessage[] {
  const messages: CorpusMessage[] = [];
  const add = (name: string, ...parts: (string | Buffer)[]) => messages.push({ name: `generated/${name}`, raw: join(...parts) });
  /** Headers, a blank line, the body. */
  const plain = (name: string, subject: string, body: string | Buffer, extra: string[] = []) =>
    add(name, headers({ subject, messageId: name, extra }), CRLF, CRLF, body, CRLF);
  /** A MIME message of that content type. */
  const mime = (name: string, contentType: string, body: string | Buffer, extra: string[] = []) =>
    add(
      name,
      headers({ subject: name, messageId: name, extra: ["MIME-Version: 1.0", `Content-Type: ${contentType}`, ...extra] }),
      CRLF,
      CRLF,
      body,
    );
  const textPart = (text: string, type = "text/plain") => lines(`Content-Type: ${type}`, "", text);

  // Size and count
  const attachments = Array.from({ length: 1000 }, (_, index) =>
    lines(
      `Content-Type: application/octet-stream; name="file-${index}.bin"`,
      "Content-Transfer-Encoding: base64",
      `Content-Disposition: attachment; filename="file-${index}.bin"`,
      "",
      pseudoRandomBytes(48, index + 1).toString("base64"),
    ),
  );
  mime(
    "attachments-1000",
    'multipart/mixed; boundary="many"',
    multipart("many", [textPart("See the 1,000 files."), ...attachments]),
  );
  plain("header-line-100k", "S".repeat(100_000), "A 100,000-character subject on one line.");
  plain("header-line-1m", "one huge header", "body", [`X-Huge: ${"a".repeat(1_048_576)}`]);
  plain(
    "header-folded-10k-lines",
    `folded${CRLF} ${Array.from({ length: 10_000 }, (_, index) => `part${index}`).join(`${CRLF} `)}`,
    "body",
  );
  plain(
    "headers-20000-fields",
    "twenty thousand fields",
    "body",
    Array.from({ length: 20_000 }, (_, index) => `X-Field-${index}: value ${index}`),
  );
  plain("body-line-2m", "one 2 MiB line", "x".repeat(2 * 1_048_576));
  add("message-id-10k", headers({ subject: "huge Message-ID", messageId: `m${"i".repeat(10_000)}` }), CRLF, CRLF, "body", CRLF);
  plain("encoded-words-10000", Array.from({ length: 10_000 }, () => "=?utf-8?B?w6k=?=").join(" "), "body");
  mime("html-50000-nested-divs", "text/html; charset=utf-8", `${"<div>".repeat(50_000)}deep${"</div>".repeat(50_000)}${CRLF}`);
  mime(
    "base64-one-1m-line",
    'multipart/mixed; boundary="l"',
    multipart("l", [
      lines(
        "Content-Type: application/octet-stream",
        "Content-Transfer-Encoding: base64",
        'Content-Disposition: attachment; filename="big.bin"',
        "",
        pseudoRandomBytes(768 * 1024, 11).toString("base64"),
      ),
    ]),
  );
  plain("oversize", "over the size limit", "o".repeat(Math.max(0, oversizeBytes - 300)));

  // 8-bit and broken headers
  add(
    "headers-8bit-latin1",
    latin1(
      lines(
        "From: J\xf6rg M\xfcller <jorg@example.org>",
        "To: someone@hookmail.test",
        "Subject: Caf\xe9 cr\xe8me br\xfbl\xe9e",
        "",
        "Latin-1: \xe9t\xe9",
        "",
      ),
    ),
  );
  add(
    "headers-8bit-utf8",
    lines(
      "From: Zoë Ünïcödé <zoe@exämple.org>",
      "To: 日本 <someone@hookmail.test>",
      "Subject: Grüße 日本語 🎉",
      "",
      "UTF-8 body ✓",
      "",
    ),
  );
  add(
    "headers-8bit-invalid-utf8",
    latin1(
      lines(
        "From: \xff\xfe <bad@example.org>",
        "To: someone@hookmail.test",
        "Subject: \xc3\x28 \xa0\xa1 \xe2\x28\xa1 \xf0\x28\x8c\xbc \xed\xa0\x80",
        "X-Caf\xe9: 8-bit field name",
        "",
        "\xc3\x28 body",
        "",
      ),
    ),
  );
  add(
    "8bit-headers-in-mime-part",
    headers({
      subject: "8-bit part headers",
      messageId: "part-8bit",
      extra: ["MIME-Version: 1.0", 'Content-Type: multipart/mixed; boundary="p"'],
    }),
    CRLF,
    CRLF,
    `--p${CRLF}`,
    latin1(
      lines(
        'Content-Type: text/plain; name="r\xe9sum\xe9.txt"',
        'Content-Disposition: attachment; filename="r\xe9sum\xe9.txt"',
        "",
        "CV",
      ),
    ),
    `${CRLF}--p--${CRLF}`,
  );
  add(
    "header-lines-without-colon",
    lines(
      " starts with a continuation",
      "no colon here",
      ":::: only colons",
      "From: sender@example.org",
      "Subject: x",
      "",
      "body",
      "",
    ),
  );
  plain("encoded-word-bad", "=?x-bogus?B?SGVsbG8=?= =?utf-8?Q?=ZZ=?= =?utf-8?B?!!!?= =?utf-8?X?abc?= =??B??=", "body");
  plain("content-type-garbage", "garbage content-type", "body", ['Content-Type: ;;;;===;"', "Content-Disposition: ===;;"]);
  add(
    "duplicate-headers",
    lines(
      ...Array.from({ length: 50 }, (_, index) => `From: sender${index}@example.org`),
      "Subject: one",
      "Subject: two",
      "Message-ID: <dup-1@bad-input.hookmail.test>",
      "Message-ID: <dup-2@bad-input.hookmail.test>",
      "Content-Type: text/plain",
      "Content-Type: text/html",
      "Content-Type: multipart/mixed; boundary=q",
      "",
      "body",
      "",
    ),
  );

  // Missing headers, empty bodies
  add("no-headers-at-all", CRLF, "A body without any header.", CRLF);
  add("body-without-header-block", "just some text", CRLF, "and another line", CRLF);
  add("headers-only-no-blank-line", "From: sender@example.org", CRLF, "Subject: no body, no blank line");
  add("no-from-to-date-message-id", "Subject: only a subject", CRLF, CRLF, "body", CRLF);
  add("empty");
  add("whitespace-only", "   ", CRLF, "\t", CRLF, CRLF);
  add("single-crlf", CRLF);
  add("headers-and-empty-body", headers({ subject: "empty body", messageId: "empty-body" }), CRLF, CRLF);

  // Nesting
  add("nested-rfc822-3", nestedRfc822(3));
  add("nested-rfc822-100", nestedRfc822(100));
  add("nested-multipart-1000", nestedMultipart(1000));
  mime(
    "message-rfc822-truncated",
    'multipart/mixed; boundary="t"',
    multipart("t", [
      lines(
        "Content-Type: message/rfc822",
        "",
        "From: inner@example.org",
        "Subject: cut off",
        "Content-Type: multipart/mixed; boundary=never",
      ),
    ]),
  );
  mime("message-rfc822-empty", 'multipart/mixed; boundary="e"', multipart("e", [lines("Content-Type: message/rfc822", "", "")]));
  mime(
    "delivery-status-garbage",
    'multipart/report; report-type=delivery-status; boundary="r"',
    multipart("r", [
      textPart("bounce"),
      lines("Content-Type: message/delivery-status", "", "\x00\x01 not fields", "Status: ;;;"),
      textPart("::::", "text/rfc822-headers"),
    ]),
  );

  // Broken MIME boundaries
  mime(
    "boundary-never-closed",
    'multipart/mixed; boundary="open"',
    multipart("open", [textPart("first"), textPart("<p>second", "text/html")], { close: false }),
  );
  mime("boundary-parameter-missing", "multipart/mixed", multipart("x", [textPart("part")]));
  mime(
    "boundary-mismatch",
    'multipart/alternative; boundary="abc"',
    multipart("xyz", [textPart("text"), textPart("<b>html</b>", "text/html")]),
  );
  mime("boundary-empty", 'multipart/mixed; boundary=""', multipart("", [textPart("part")]));
  mime(
    "boundary-300-characters",
    `multipart/mixed; boundary="${"b".repeat(300)}"`,
    multipart("b".repeat(300), [textPart("part")]),
  );
  mime(
    "boundary-prefix-collision",
    'multipart/mixed; boundary="a"',
    lines(
      "--a",
      "Content-Type: text/plain",
      "",
      "--ab",
      "--a-b",
      "---a",
      "--a",
      "Content-Type: text/plain",
      "",
      "two",
      "--a--",
      "",
    ),
  );
  mime("boundary-lines-only", 'multipart/mixed; boundary="z"', `--z${CRLF}`.repeat(5_000));

  // Charsets and transfer encodings
  mime("charset-unknown", "text/plain; charset=x-no-such-charset", join(latin1("8-bit \xe9\xe8\xff bytes"), CRLF));
  mime("charset-utf8-with-latin1-bytes", "text/plain; charset=utf-8", join(latin1("caf\xe9 \xe0 la cr\xe8me"), CRLF), [
    "Content-Transfer-Encoding: 8bit",
  ]);
  mime("charset-utf16-odd-ascii", "text/plain; charset=utf-16", `odd-length ascii!${CRLF}`);
  mime(
    "charset-iso-2022-jp-broken",
    "text/plain; charset=iso-2022-jp",
    join(latin1("\x1b$B\x1b(J\x1b$@\x1b(B\x1b$B%F%9%H\x1b"), CRLF),
  );
  mime(
    "quoted-printable-broken",
    "text/plain; charset=utf-8",
    lines("=Z", "=", "soft break at end =", "=4", "=C3=", "=E9=ZZ=00"),
    ["Content-Transfer-Encoding: quoted-printable"],
  );
  mime("base64-garbage", "application/pdf; name=x.pdf", `!!!@@@### not base64 === ==== a${CRLF}`, [
    "Content-Transfer-Encoding: base64",
  ]);
  mime("transfer-encoding-unknown", "text/plain", `uryyb${CRLF}`, ["Content-Transfer-Encoding: x-rot13"]);
  mime(
    "attachment-filenames-weird",
    'multipart/mixed; boundary="w"',
    multipart("w", [
      lines(
        'Content-Type: text/plain; name="../../etc/passwd"',
        'Content-Disposition: attachment; filename="../../etc/passwd"',
        "",
        "root:x:0:0",
      ),
      lines(
        `Content-Type: application/octet-stream; name="${"n".repeat(2_000)}.bin"`,
        "Content-Disposition: attachment",
        "",
        "long name",
      ),
      lines(
        "Content-Type: application/octet-stream",
        "Content-Disposition: attachment; filename*=utf-8''%ZZ%E9%",
        "",
        "bad rfc2231",
      ),
      lines(
        "Content-Type: application/octet-stream",
        'Content-Disposition: attachment; filename="a\x00b.txt"',
        "",
        "nul in name",
      ),
      lines(
        "Content-Type: application/octet-stream",
        "Content-Disposition: attachment; filename*0*=utf-8''a; filename*5=b; filename*1000000=c",
        "",
        "sparse",
      ),
    ]),
  );

  // NULs, line endings, dots, binary
  add(
    "nul-in-headers",
    latin1(
      lines(
        "From: Nul\x00Name <nul\x00@example.org>",
        "To: someone@hookmail.test",
        "Subject: nul \x00 in \x00 subject",
        "Message-ID: <nul\x00id@bad-input.hookmail.test>",
        "X-Nul\x00Name: v",
        "",
        "body",
        "",
      ),
    ),
  );
  plain("nul-in-body", "nul in body", join(Buffer.from([0, 0, 0, 0x41, 0, 0x42]), CRLF, "text\x00more"));
  const nulEverywhere = join(
    headers({ subject: "nul everywhere", messageId: "nul-everywhere" }),
    CRLF,
    CRLF,
    "body ".repeat(200),
    CRLF,
  );
  for (let index = 9; index < nulEverywhere.length; index += 10) nulEverywhere[index] = 0;
  add("nul-every-10th-byte", nulEverywhere);
  plain("dot-lines", "dots", lines(".", "..", "...", ". not the end", ".", "", ".", "last"));
  add("dot-first-byte", ".Subject: starts with a dot", CRLF, "From: sender@example.org", CRLF, CRLF, ".", CRLF);
  add(
    "bare-cr-line-endings",
    headers({ subject: "bare CR", messageId: "bare-cr" }).replace(/\r\n/g, "\r"),
    "\r\r",
    "line one\rline two\r",
  );
  add(
    "mixed-line-endings",
    "From: sender@example.org\nTo: someone@hookmail.test\r\nSubject: mixed\rMessage-ID: <mixed@x.test>\n\r\nbody\n\rmore\r\n",
  );
  add("binary-junk-64k", pseudoRandomBytes(65_536, 7));
  // SMTP commands after a bare-LF dot: the server must read them as the message's content (RFC 5321 §4.1.1.4).
  const smuggled = "MAIL FROM:<evil@example.org>\nRCPT TO:<smuggled@hookmail.test>\nDATA\nSubject: smuggled\n\nsmuggled body\n";
  plain(
    "smtp-smuggling-bare-lf",
    "smuggling attempt",
    join("before\n.\n", smuggled, ".\n", "after\r\n.\nagain\n.\r\n", smuggled, "\r\n.\rend"),
  );
  return messages;
}

// ---------------------------------------------------------------------------------------------
// Mutations

/** The message's lines, each with its line break (LF, CRLF or none at the end). */
function splitLines(raw: Buffer): Buffer[] {
  const result: Buffer[] = [];
  let start = 0;
  for (let index = 0; index < raw.length; index += 1) {
    if (raw[index] === 0x0a) {
      result.push(raw.subarray(start, index + 1));
      start = index + 1;
    }
  }
  if (start < raw.length) result.push(raw.subarray(start));
  return result;
}

const isBoundaryLine = (line: Buffer) => line.length > 2 && line[0] === 0x2d && line[1] === 0x2d;

type Mutation = { name: string; apply: (raw: Buffer, random: Random, other: Buffer) => Buffer };

const MUTATIONS: Mutation[] = [
  {
    name: "flip-bytes",
    apply: (raw, random) => {
      const copy = Buffer.from(raw);
      const flips = 1 + randomInt(random, 20);
      for (let count = 0; count < flips && copy.length > 0; count += 1)
        copy[randomInt(random, copy.length)] = randomInt(random, 256);
      return copy;
    },
  },
  { name: "truncate", apply: (raw, random) => raw.subarray(0, randomInt(random, raw.length + 1)) },
  {
    name: "duplicate-boundary-line",
    apply: (raw, random) => {
      const all = splitLines(raw);
      const candidates = all.map((line, index) => (isBoundaryLine(line) ? index : -1)).filter((index) => index !== -1);
      const at =
        candidates.length > 0 ? (candidates[randomInt(random, candidates.length)] as number) : randomInt(random, all.length);
      const line = all[at];
      if (!line) return raw;
      const copies = 1 + randomInt(random, 5);
      return Buffer.concat([...all.slice(0, at), ...Array.from({ length: copies }, () => line), ...all.slice(at)]);
    },
  },
  {
    name: "remove-boundary-line",
    apply: (raw, random) => {
      const all = splitLines(raw);
      const candidates = all.map((line, index) => (isBoundaryLine(line) ? index : -1)).filter((index) => index !== -1);
      const at =
        candidates.length > 0 ? (candidates[randomInt(random, candidates.length)] as number) : randomInt(random, all.length);
      return Buffer.concat(all.filter((_, index) => index !== at));
    },
  },
  {
    name: "insert-nuls",
    apply: (raw, random) => {
      let copy = raw;
      const inserts = 1 + randomInt(random, 10);
      for (let count = 0; count < inserts; count += 1) {
        const at = randomInt(random, copy.length + 1);
        copy = Buffer.concat([copy.subarray(0, at), Buffer.alloc(1 + randomInt(random, 8)), copy.subarray(at)]);
      }
      return copy;
    },
  },
  {
    name: "insert-long-line",
    apply: (raw, random) => {
      const all = splitLines(raw);
      const at = randomInt(random, all.length + 1);
      const length = 1_000 + randomInt(random, 200_000);
      const character = random() < 0.5 ? "A" : String.fromCharCode(0x21 + randomInt(random, 94));
      return Buffer.concat([...all.slice(0, at), Buffer.from(`${character.repeat(length)}\r\n`), ...all.slice(at)]);
    },
  },
  {
    name: "delete-line",
    apply: (raw, random) => {
      const all = splitLines(raw);
      const at = randomInt(random, all.length);
      return Buffer.concat(all.filter((_, index) => index !== at));
    },
  },
  {
    name: "repeat-header-line",
    apply: (raw, random) => {
      const all = splitLines(raw);
      const blank = all.findIndex((line) => line.length <= 2 && (line[0] === 0x0a || line[0] === 0x0d));
      const at = randomInt(random, Math.max(1, blank === -1 ? all.length : blank));
      const line = all[at];
      if (!line) return raw;
      return Buffer.concat([
        ...all.slice(0, at),
        ...Array.from({ length: 1 + randomInt(random, 200) }, () => line),
        ...all.slice(at),
      ]);
    },
  },
  { name: "strip-cr", apply: (raw) => Buffer.from(raw.toString("latin1").replace(/\r\n/g, "\n"), "latin1") },
  { name: "lf-to-bare-cr", apply: (raw) => Buffer.from(raw.toString("latin1").replace(/\r?\n/g, "\r"), "latin1") },
  {
    name: "splice-two-messages",
    apply: (raw, random, other) =>
      Buffer.concat([raw.subarray(0, randomInt(random, raw.length + 1)), other.subarray(randomInt(random, other.length + 1))]),
  },
  {
    name: "insert-8bit-bytes",
    apply: (raw, random) => {
      const all = splitLines(raw);
      const at = randomInt(random, all.length + 1);
      const bytes = Buffer.from(Array.from({ length: 1 + randomInt(random, 40) }, () => 0x80 + randomInt(random, 128)));
      return Buffer.concat([...all.slice(0, at), bytes, Buffer.from("\r\n"), ...all.slice(at)]);
    },
  },
];

/** `count` mutations of the bases, 1–3 operations each, described in their names. */
export function mutateMessages({
  bases,
  count,
  random,
}: {
  bases: CorpusMessage[];
  count: number;
  random: Random;
}): CorpusMessage[] {
  const mutants: CorpusMessage[] = [];
  for (let index = 0; index < count; index += 1) {
    const base = bases[randomInt(random, bases.length)] as CorpusMessage;
    const other = bases[randomInt(random, bases.length)] as CorpusMessage;
    let raw = base.raw;
    const applied: string[] = [];
    const operations = 1 + randomInt(random, 3);
    for (let step = 0; step < operations; step += 1) {
      const mutation = MUTATIONS[randomInt(random, MUTATIONS.length)] as Mutation;
      raw = mutation.apply(raw, random, other.raw);
      applied.push(mutation.name);
    }
    mutants.push({ name: `mutation-${index}/${base.name.replace(/^corpus\//, "")}+${applied.join("+")}`, raw });
  }
  return mutants;
}
