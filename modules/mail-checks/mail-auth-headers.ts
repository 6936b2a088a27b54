// What DMARC needs to know of a message before any DNS lookup (docs/webhooks.md: Authentication): its
// one From mailbox, or why it has none (RFC 7489 §6.6.1: zero or several From mailboxes or fields
// give no single author domain, and such a mail fails), and the keys its signatures name. The header
// block is read as mailauth reads it (it ends at the first empty line; a line starting with white
// space continues the field before it).
import { getAlignment } from "mailauth/lib/tools.js";
import addressparser from "nodemailer/lib/addressparser";

/** Why a message has no single From mailbox: none at all, or several (mailboxes or From fields). */
export const FROM_PROBLEMS = ["no-from", "multiple-from"] as const;
export type FromProblem = (typeof FROM_PROBLEMS)[number];

export type MessageAuthor = { address: string; domain: string } | { problem: FromProblem };

export type SignatureKey = { domain: string; selector: string };

export type MailAuthHeaders = {
  author: MessageAuthor;
  /** The d= and s= of each DKIM-Signature field, in order. */
  dkimKeys: SignatureKey[];
  /** The d= of each ARC-Seal and ARC-Message-Signature field (a forwarder's keys). */
  arcDomains: string[];
};

/** The header block: up to the first empty line, or the whole message when there is none. */
function readHeaderBlock(raw: Buffer): Buffer {
  for (let index = raw.indexOf(0x0a); index !== -1; index = raw.indexOf(0x0a, index + 1)) {
    const next = raw[index + 1];
    if (next === 0x0a || (next === 0x0d && raw[index + 2] === 0x0a)) return raw.subarray(0, index + 1);
  }
  return raw;
}

/** The first read of a message in a file for its header block; each next read takes four times as much. */
const FIRST_HEAD_READ_BYTES = 64 * 1024;

/**
 * The header block of a message, from its bytes or from its file (a Blob): read from the start, a
 * larger prefix at a time, until its first empty line, or the whole message when it has none.
 */
export async function readHeaderBlockOf(raw: Buffer | Blob): Promise<Buffer> {
  if (Buffer.isBuffer(raw)) return readHeaderBlock(raw);
  for (let length = FIRST_HEAD_READ_BYTES; ; length *= 4) {
    const head = Buffer.from(await raw.slice(0, length).arrayBuffer());
    const block = readHeaderBlock(head);
    if (block.length < head.length || head.length >= raw.size) return block;
  }
}

/** Each field as [lower-case name, value], folded lines joined. */
function readFields(block: Buffer): [string, string][] {
  const fields: string[] = [];
  for (const line of block
    .toString("binary")
    .replace(/[\r\n]+$/, "")
    .split(/\r?\n/)) {
    if (fields.length > 0 && /^\s/.test(line)) fields[fields.length - 1] += `\r\n${line}`;
    else fields.push(line);
  }
  return fields.flatMap((field) => {
    const colon = field.indexOf(":");
    if (colon <= 0) return [];
    const value = Buffer.from(field.slice(colon + 1), "binary").toString("utf8");
    return [[field.slice(0, colon).trim().toLowerCase(), value] as [string, string]];
  });
}

/** The tags of a DKIM-Signature or ARC field (white space is folding, never part of a value). */
function readTags(value: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const tag of value.replace(/\s+/g, "").split(";")) {
    const equals = tag.indexOf("=");
    if (equals > 0) tags.set(tag.slice(0, equals).toLowerCase(), tag.slice(equals + 1));
  }
  return tags;
}

/** An RFC 2047 encoded word, as the message parser finds one in an address. */
const ENCODED_WORD = /=\?[^?]+\?[bq]\?[^?]*\?=/i;

/** Every mailbox of the From fields, group members included; a name without an address counts too. */
function readAuthor(fromValues: string[]): MessageAuthor {
  if (fromValues.length === 0) return { problem: "no-from" };
  if (fromValues.length > 1) return { problem: "multiple-from" };
  const [value = ""] = fromValues;
  const mailboxes = addressparser(value.trim()).flatMap((entry) => ("group" in entry ? entry.group : [entry]));
  if (mailboxes.length > 1) return { problem: "multiple-from" };
  const address = mailboxes[0]?.address?.trim() ?? "";
  const domain = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  // An encoded word may not stand in an address (RFC 2047 §5), and the message parser decodes one
  // there: DMARC would judge one domain while the webhook's `from` shows another.
  if (ENCODED_WORD.test(address)) return { problem: "no-from" };
  return address.includes("@") && domain ? { address, domain } : { problem: "no-from" };
}

export function readMailAuthHeaders(raw: Buffer): MailAuthHeaders {
  const fields = readFields(readHeaderBlock(raw));
  const valuesOf = (...names: string[]) => fields.filter(([name]) => names.includes(name)).map(([, value]) => value);
  return {
    author: readAuthor(valuesOf("from")),
    dkimKeys: valuesOf("dkim-signature").flatMap((value) => {
      const tags = readTags(value);
      const domain = tags.get("d");
      const selector = tags.get("s");
      return domain && selector ? [{ domain: domain.toLowerCase(), selector }] : [];
    }),
    arcDomains: valuesOf("arc-seal", "arc-message-signature").flatMap((value) => readTags(value).get("d")?.toLowerCase() ?? []),
  };
}

/** Whether a domain (or a DNS name under it) shares the From domain's organizational domain (DMARC's relaxed alignment). */
export function isAlignedWith(fromDomain: string, domain: string): boolean {
  return getAlignment(fromDomain, [domain]) !== false;
}
