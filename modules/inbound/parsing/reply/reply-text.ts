// reply.text for the webhook payload (the field is documented in docs/webhooks.md): the text a
// person wrote in a reply, without the quoted history and without the signature. null when the
// mail has no text part; otherwise trimmed text (possibly "").
//
// How the choice was made: reply-text.test.ts runs every fixture in ../../test-support/reply-fixtures
// (Gmail web and mobile, Outlook desktop/web/mobile, Apple Mail, iPhone, Thunderbird; English and
// French) through the npm packages email-reply-parser and planer and through this module, and prints
// each score.
// Neither package is used here:
// - both run regexes that backtrack catastrophically on hostile input (email-reply-parser on a
//   long line starting with "On ", planer on ~200 KB of "Le , Le , ..."), so neither can meet the
//   linear-time bound, and planer also silently keeps only the first 1000 lines of a message;
// - email-reply-parser drops sign-offs such as "Regards,\nAlice" and "Cordialement," (but keeps
//   "Thanks,") and flattens inline answers; planer removes no signatures at all.
// So this is a line scanner with a handful of rules, each applied to one line (or a bounded
// window of lines) of bounded length: linear in the input size.
//
// Rules:
// - cut at the first signature: a "-- " (or "--") line, or a mobile one ("Sent from my iPhone",
//   "Envoyé de mon iPhone", "Get Outlook for iOS"...);
// - cut at the first unquoted history header: "-----Original Message-----" / "-----Message
//   d'origine-----", an Outlook "From:/Sent:/To:/Subject:" or "De :/Envoyé :/À :/Objet :" block
//   (with the "____" line above it), or an attribution ("On ... wrote:", "Le ... a écrit :",
//   possibly wrapped over two lines) that is not followed by "> " lines;
// - "> " lines, and an attribution followed by them, are quoted history. Text above the quote
//   (top-posting) or below a single leading quote (bottom-posting) is the reply. When own text
//   and quotes alternate (inline answers), the reply is everything up to the last own line,
//   quotes included, since the answers make no sense without the questions.
// - closing lines ("Thanks,", "Regards,", "Cordialement,") and the name under them are part of
//   what the person wrote: they are kept.

type LineKind = "blank" | "own" | "quote";

type Segment = { kind: Exclude<LineKind, "blank">; start: number; end: number };

const MAX_RULE_LINE_LENGTH = 1000;
const HEADER_BLOCK_WINDOW = 6;
const ATTRIBUTION_START = /^(?:On|Le)\s/;
const ATTRIBUTION_END = /(?:wrote|a écrit)\s?:$/;
const SIGNATURE_DELIMITER = /^--\s?$/;
const MOBILE_SIGNATURE =
  /^(?:Sent from my|Sent from Outlook|Sent from Mail for|Get Outlook for|Envoyé de mon|Envoyé depuis mon|Envoyé à partir de|Télécharger Outlook pour)\s/;
const ORIGINAL_MESSAGE = /^-{2,}\s?(?:Original Message|Message d'origine)\s?-{2,}$/i;
const UNDERSCORE_SEPARATOR = /^_{10,}$/;
const HEADER_FROM = /^\*?(?:From|De)\s?:\*?\s/;
const HEADER_FIELD = /^\*?(?:Sent|Date|Envoyé|To|À|Cc|Subject|Objet)\s?:/;

/** The reply text of a mail's text part, or null when there is no text part. Never throws. */
export function extractReplyText(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  try {
    return extract(String(text));
  } catch {
    return String(text).trim();
  }
}

function extract(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const { kinds, end } = classifyLines(lines);
  const segments = toSegments(kinds, end);
  const range = replyRange(segments);
  if (!range) return "";
  return lines.slice(range.start, range.end).join("\n").trim();
}

function classifyLines(lines: string[]): { kinds: LineKind[]; end: number } {
  const kinds: LineKind[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === "") {
      kinds.push("blank");
      i++;
      continue;
    }
    if (isQuoteLine(line)) {
      kinds.push("quote");
      i++;
      continue;
    }
    if (isCutLine(lines, i)) return { kinds, end: i };
    const attribution = attributionLength(lines, i);
    if (attribution > 0) {
      if (!isFollowedByQuote(lines, i + attribution)) return { kinds, end: i };
      for (let k = 0; k < attribution; k++) kinds.push("quote");
      i += attribution;
      continue;
    }
    kinds.push("own");
    i++;
  }
  return { kinds, end: lines.length };
}

function isQuoteLine(line: string): boolean {
  return line.startsWith(">");
}

function ruleText(line: string | undefined): string | null {
  if (line === undefined || line.length > MAX_RULE_LINE_LENGTH) return null;
  return line.trim();
}

function isCutLine(lines: string[], index: number): boolean {
  const raw = lines[index]!;
  if (SIGNATURE_DELIMITER.test(raw)) return true;
  const line = ruleText(raw);
  if (line === null) return false;
  if (MOBILE_SIGNATURE.test(line) || ORIGINAL_MESSAGE.test(line)) return true;
  if (UNDERSCORE_SEPARATOR.test(line)) return isHeaderBlock(lines, index + 1);
  return isHeaderBlock(lines, index);
}

function isHeaderBlock(lines: string[], index: number): boolean {
  const first = ruleText(lines[index]);
  if (first === null || !HEADER_FROM.test(first)) return false;
  let fields = 0;
  for (let k = index + 1; k < Math.min(lines.length, index + HEADER_BLOCK_WINDOW); k++) {
    const line = ruleText(lines[k]);
    if (line !== null && HEADER_FIELD.test(line)) fields++;
  }
  return fields >= 2;
}

/** 1 or 2 when an attribution ("On ... wrote:", "Le ... a écrit :") starts at index, else 0. */
function attributionLength(lines: string[], index: number): number {
  const line = ruleText(lines[index]);
  if (line === null || !ATTRIBUTION_START.test(line)) return 0;
  if (ATTRIBUTION_END.test(line)) return 1;
  const next = ruleText(lines[index + 1]);
  if (next !== null && next !== "" && !isQuoteLine(next) && ATTRIBUTION_END.test(next)) return 2;
  return 0;
}

function isFollowedByQuote(lines: string[], index: number): boolean {
  for (let k = index; k < lines.length; k++) {
    const line = lines[k]!;
    if (line.trim() !== "") return isQuoteLine(line);
  }
  return false;
}

function toSegments(kinds: LineKind[], end: number): Segment[] {
  const segments: Segment[] = [];
  for (let i = 0; i < end; i++) {
    const kind = kinds[i]!;
    if (kind === "blank") continue;
    const last = segments[segments.length - 1];
    if (last && last.kind === kind) last.end = i + 1;
    else segments.push({ kind, start: i, end: i + 1 });
  }
  return segments;
}

/** Lines [start, end) that make the reply, or null when there is no own text. */
function replyRange(segments: Segment[]): { start: number; end: number } | null {
  const own = segments.filter((segment) => segment.kind === "own");
  if (own.length === 0) return null;
  const lastOwn = own[own.length - 1]!;
  if (isBottomPost(segments)) return { start: lastOwn.start, end: lastOwn.end };
  return { start: 0, end: lastOwn.end };
}

function isBottomPost(segments: Segment[]): boolean {
  return segments.length === 2 && segments[0]!.kind === "quote" && segments[1]!.kind === "own";
}
