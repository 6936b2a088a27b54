// Endpoint filters where mail is parsed (docs/webhooks.md: Filters): the facts a filter reads, taken
// from the parse a parsing thread already has, and a filter compiled once into a predicate that any
// number of mails can be given. Every value read is bounded (FILTER_READ_LIMITS), and patterns run on
// RE2 (modules/endpoints/endpoint-filter.patterns.ts), so one condition costs milliseconds at most
// whatever the mail (endpoint-filter.cost.test.ts).

import { FILTER_HEADER_FIELD_PREFIX, FILTER_READ_LIMITS } from "@/modules/endpoints/endpoint-filter.constants";
import { compileFilterPattern } from "@/modules/endpoints/endpoint-filter.patterns";
import type { EndpointFilter, FilterCondition, FilterTextCondition } from "@/modules/endpoints/endpoint-filter.schemas";
import type { MailAuthentication } from "@/modules/mail-checks/mail-auth.models";
import { readHeaderFields } from "./header-fields";
import { findFromAddress } from "./mail-addresses";
import type { MessageAttachment, ParsedMessage } from "./mail-stream";

/** A value a condition reads, cut to its bound, and its lowercased copy for the comparisons that ignore case. */
export type FactText = { value: string; lowered: string };

/** What a filter reads of one mail for one recipient; null or empty: the mail has no such value. */
export type FilterFacts = {
  /** The From header's first mailbox, its address alone. */
  from: FactText | null;
  /** The envelope recipient routed to the address, as the sender wrote it. */
  to: FactText | null;
  subject: FactText | null;
  /** The plain-text body (made from the HTML for an HTML-only mail), its first 1 MiB. */
  text: FactText | null;
  /** By lowercased name: the values of its first fields, in the message's order. */
  headers: ReadonlyMap<string, readonly FactText[]>;
  attachments: readonly { filename: FactText | null; contentType: FactText }[];
  spamScore: number | null;
  /** DMARC's result (pass, fail, none, …). */
  dmarc: FactText | null;
};

const toFact = (value: string | null | undefined, maxChars: number): FactText | null => {
  if (value === null || value === undefined) return null;
  const bounded = value.length > maxChars ? value.slice(0, maxChars) : value;
  return { value: bounded, lowered: bounded.toLowerCase() };
};

function readHeaderFacts(parsed: ParsedMessage): Map<string, FactText[]> {
  const headers = new Map<string, FactText[]>();
  for (const { name, value } of readHeaderFields(parsed)) {
    const key = name.toLowerCase();
    const values = headers.get(key) ?? [];
    if (values.length >= FILTER_READ_LIMITS.headerFields) continue;
    values.push(toFact(value, FILTER_READ_LIMITS.valueChars) as FactText);
    headers.set(key, values);
  }
  return headers;
}

/** The content type as the payload's attachments give it: as declared, lowercased. */
function readContentType(attachment: MessageAttachment): string {
  const declared = attachment.headers?.get("content-type") as { value?: string } | undefined;
  return (declared?.value || attachment.contentType || "application/octet-stream").toLowerCase();
}

/**
 * The facts of a parsed mail for the recipient it was routed by. Build them once per recipient and
 * give them to every endpoint's compiled filter.
 */
export function toFilterFacts({
  parsed,
  recipient,
  authentication,
  spam,
}: {
  parsed: ParsedMessage;
  recipient: string | null;
  authentication: MailAuthentication | null;
  spam: { score: number } | null;
}): FilterFacts {
  const { valueChars, textChars, attachments, attachmentValueChars } = FILTER_READ_LIMITS;
  return {
    from: toFact(findFromAddress(parsed)?.address, valueChars),
    to: toFact(recipient, valueChars),
    subject: toFact(parsed.subject, valueChars),
    text: toFact(parsed.text, textChars),
    headers: readHeaderFacts(parsed),
    attachments: parsed.attachments.slice(0, attachments).map((attachment) => ({
      filename: toFact(attachment.filename, attachmentValueChars),
      contentType: toFact(readContentType(attachment), attachmentValueChars) as FactText,
    })),
    spamScore: spam?.score ?? null,
    dmarc: toFact(authentication?.dmarc.result, valueChars),
  };
}

/** The values a text condition's field reads; the condition holds when one of them matches. */
function readField(field: FilterTextCondition["field"]): (facts: FilterFacts) => readonly (FactText | null)[] {
  if (field.startsWith(FILTER_HEADER_FIELD_PREFIX)) {
    const name = field.slice(FILTER_HEADER_FIELD_PREFIX.length).toLowerCase();
    return (facts) => facts.headers.get(name) ?? [];
  }
  switch (field) {
    case "attachment.filename":
      return (facts) => facts.attachments.map((attachment) => attachment.filename);
    case "attachment.contentType":
      return (facts) => facts.attachments.map((attachment) => attachment.contentType);
    case "authentication.dmarc":
      return (facts) => [facts.dmarc];
    default:
      return (facts) => [facts[field as "from" | "to" | "subject" | "text"]];
  }
}

/** How one value is tested by a text condition, compiled once. */
function compileTextTest({ op, value }: FilterTextCondition): (fact: FactText) => boolean {
  if (op === "matches") {
    const pattern = compileFilterPattern(value);
    return (fact) => pattern.test(fact.value.slice(0, FILTER_READ_LIMITS.patternInputChars));
  }
  const wanted = value.toLowerCase();
  switch (op) {
    case "contains":
      return (fact) => fact.lowered.includes(wanted);
    case "equals":
      return (fact) => fact.lowered === wanted;
    case "startsWith":
      return (fact) => fact.lowered.startsWith(wanted);
    case "endsWith":
      return (fact) => fact.lowered.endsWith(wanted);
  }
}

type CompiledCondition = { holds: (facts: FilterFacts) => boolean; isPattern: boolean };

function compileCondition(condition: FilterCondition): CompiledCondition {
  if (condition.field === "spam.score") {
    const { op, value } = condition;
    const holds = (facts: FilterFacts) =>
      facts.spamScore !== null && (op === "gt" ? facts.spamScore > value : facts.spamScore < value);
    return { holds, isPattern: false };
  }
  const read = readField(condition.field);
  const test = compileTextTest(condition);
  // A value the mail does not have makes the condition false, whatever its operator.
  const holds = (facts: FilterFacts) => read(facts).some((fact) => fact !== null && test(fact));
  return { holds, isPattern: condition.op === "matches" };
}

export type CompiledFilter = (facts: FilterFacts) => boolean;

/**
 * A filter as a predicate: its patterns compiled once, for as many mails as it is given. Conditions
 * are tried cheapest first (patterns last), and the answer is known at the first that decides it.
 */
export function compileFilter(filter: EndpointFilter): CompiledFilter {
  const conditions = filter.conditions.map(compileCondition).sort((a, b) => Number(a.isPattern) - Number(b.isPattern));
  if (filter.match === "all") return (facts) => conditions.every((condition) => condition.holds(facts));
  return (facts) => conditions.some((condition) => condition.holds(facts));
}

/** Whether a mail's facts pass a filter (compiles it for this one call: prefer compileFilter for several). */
export function evaluateFilter(filter: EndpointFilter, facts: FilterFacts): boolean {
  return compileFilter(filter)(facts);
}

/** An address's endpoints, each with its filter (null: takes every mail), and the recipient they are judged for. */
export type EndpointSelection = { recipient: string; endpoints: { id: string; filter: EndpointFilter | null }[] };

/** The endpoints whose filter holds for the mail; the facts are read once, and only when a filter needs them. */
export function selectEndpoints(
  { recipient, endpoints }: EndpointSelection,
  parsed: ParsedMessage,
  verdicts: Pick<Parameters<typeof toFilterFacts>[0], "authentication" | "spam">,
): string[] {
  let facts: FilterFacts | undefined;
  return endpoints
    .filter(({ filter }) => {
      if (!filter) return true;
      facts ??= toFilterFacts({ parsed, recipient, ...verdicts });
      return compileFilter(filter)(facts);
    })
    .map(({ id }) => id);
}
