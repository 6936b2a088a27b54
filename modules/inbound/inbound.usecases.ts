// The one pipeline every inbound route ends in (README: Receiving mail): route each envelope recipient to its
// callback, parse the message once in a parsing thread (parse-pool.ts), and record one processing
// per callback (the user's inbox row and, when it is to be delivered, the delivery queue entry) in
// one transaction.

import type { ClaimedDelivery } from "@/modules/delivery/delivery.repository";
import { formatAddress } from "@/modules/email-callbacks/email-callbacks.models";
import type { EndpointFilter } from "@/modules/endpoints/endpoint-filter.schemas";
import type { AuthResult, MailAuthentication } from "@/modules/mail-checks/mail-auth.models";
import type { SmtpClient } from "@/modules/mail-checks/mail-auth.usecases";
import type { SpamVerdict } from "@/modules/mail-checks/spam-check";
import { PROCESSING_ERROR, PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import { createId } from "@/modules/shared/ids";
import { DUPLICATE_WINDOW_MS } from "./inbound.constants";
import { createMessageTooComplexError, createParseQueueFullError } from "./inbound.errors";
import { isSenderAllowed, normalizeSender, parseAnyRecipient, type RoutedRecipient } from "./inbound.models";
import type { InboundCallback, InboundRepository, NewProcessing } from "./inbound.repository";
import { takeByEndpoints, toClaims } from "./mail-deliveries";
import type { MessageParseOutcome, MessageParser } from "./parse-pool";
import type { EndpointSelection } from "./parsing/endpoint-filter";
import type { MessageChecks } from "./parsing/message-checks";
import type { SpooledMessage } from "./parsing/message-source";
import { createInvalidMessageError } from "./parsing/parsing.errors";
import type { WebhookPayloadRequest } from "./parsing/webhook-payload";
import { planStagedBodies } from "./staged-bodies";

export type InboundEnvelope = {
  from: string | null;
  to: string[];
  /** The SMTP client that handed the message over, when known (SPF is checked against it). */
  client?: SmtpClient | null;
  /** The SPF verdict of the provider that relayed the message, when it has no client to check. */
  spf?: AuthResult | null;
};

export type AcceptedMessage = {
  /** Processings created: 0 when no recipient matched or every one was a duplicate (still a success). */
  accepted: number;
  processingIds: string[];
  /** The created processings that wait for delivery (status pending). */
  pendingIds: string[];
  /** Their deliveries, one per endpoint that takes the mail. */
  deliveryIds: string[];
  /** With `claimLeaseMs`: those deliveries, each claimed for the caller's first attempt. */
  claims: ClaimedDelivery[];
};

type InboundRules = { emailDomains: string[] };

/** The operator's domains as recipients are compared with them: lower-cased. */
const operatorDomainsOf = (rules: InboundRules) => rules.emailDomains.map((domain) => domain.trim().toLowerCase());

/**
 * The callbacks the envelope reaches, each with its recipients in envelope order. Each recipient
 * (its tag removed) goes to its exact address, else the matching pattern with the most literal
 * characters (ties: the oldest), else its domain's catch-all (docs/domains.md: Routing): one
 * query for the whole envelope, one indexed lookup per recipient.
 */
async function routeRecipients({
  to,
  repository,
  rules,
}: {
  to: string[];
  repository: InboundRepository;
  rules: InboundRules;
}): Promise<{ callback: InboundCallback; recipients: RoutedRecipient[] }[]> {
  const recipients = new Map<string, RoutedRecipient>();
  for (const address of to) {
    const routed = parseAnyRecipient(address);
    if (routed && !recipients.has(routed.address)) recipients.set(routed.address, routed);
  }
  if (recipients.size === 0) return [];
  const ordered = [...recipients.values()];
  const found = await repository.findRoutes(ordered, operatorDomainsOf(rules));
  const routes = new Map<string, { callback: InboundCallback; recipients: RoutedRecipient[] }>();
  ordered.forEach((recipient, index) => {
    const callback = found[index]?.callback;
    if (!callback) return;
    const route = routes.get(callback.id) ?? { callback, recipients: [] };
    route.recipients.push(recipient);
    routes.set(callback.id, route);
  });
  return [...routes.values()];
}

function decideStatus(callback: InboundCallback, sender: string | null): Pick<NewProcessing, "status" | "error"> {
  if (!callback.isEnabled) return { status: PROCESSING_STATUS.NOT_PROCESSED, error: PROCESSING_ERROR.NOT_ENABLED };
  if (!isSenderAllowed(sender, callback.allowedOrigins)) {
    return { status: PROCESSING_STATUS.NOT_PROCESSED, error: PROCESSING_ERROR.FROM_ADDRESS_NOT_ALLOWED };
  }
  return { status: PROCESSING_STATUS.PENDING, error: null };
}

/** The address's rules on the checks' results, for a mail that is otherwise to be delivered. */
function applyCheckPolicies(
  decision: Pick<NewProcessing, "status" | "error">,
  callback: InboundCallback,
  { authentication, spam }: { authentication: MailAuthentication | null; spam: SpamVerdict | null },
): Pick<NewProcessing, "status" | "error"> {
  if (decision.status !== PROCESSING_STATUS.PENDING) return decision;
  // Only a pass authenticates the From domain: fail, none (no record), a temperror a sender can cause,
  // or no verdict at all are not delivered (docs/webhooks.md: Per-address options).
  if (callback.authenticationPolicy === "dmarc" && authentication?.dmarc.result !== "pass") {
    return { status: PROCESSING_STATUS.NOT_PROCESSED, error: PROCESSING_ERROR.AUTHENTICATION_FAILED };
  }
  if (callback.spamThreshold !== null && spam !== null && spam.score >= callback.spamThreshold) {
    return { status: PROCESSING_STATUS.NOT_PROCESSED, error: PROCESSING_ERROR.SPAM };
  }
  return decision;
}

/**
 * Records a received message for every callback its envelope reaches. Per callback, in order: the
 * same Message-ID already recorded for the same recipient within 24 h → nothing (decided by the
 * repository in the writing transaction); disabled →
 * not-processed / not-enabled; sender not allowed → not-processed / from-address-not-allowed;
 * DMARC required and not passed → not-processed / authentication-failed; spam score at or over the
 * address's threshold → not-processed / spam; else pending, with the webhook body built once and the raw message kept for delivery.
 * With `claimLeaseMs`, each pending processing is written already claimed by the caller for that
 * long, and comes back as a claim ready for its first attempt (no further read or claim needed).
 * `raw` is handed over: a large message's memory moves to the parsing thread and back into the rows,
 * and the caller's Buffer reads as empty after (parse-pool.ts).
 * Throws inbound.invalid_message when the message cannot be parsed, inbound.message_too_complex when
 * parsing it takes longer than the parser's time limit.
 */
export async function acceptMessage({
  raw,
  envelope,
  repository,
  rules,
  now = new Date(),
  claimLeaseMs,
  checks,
  parser,
}: {
  /** The message's bytes, or the file it was spooled to as it arrived (parsing/message-source.ts). */
  raw: Buffer | SpooledMessage;
  envelope: InboundEnvelope;
  repository: InboundRepository;
  rules: InboundRules;
  now?: Date;
  claimLeaseMs?: number;
  /** What the parsing thread checks and signs (parsing/message-checks.ts); nothing when left out. */
  checks?: MessageChecks;
  /** Parses off the main thread (the process's pool, parse-pool.ts). */
  parser: MessageParser;
}): Promise<AcceptedMessage> {
  const lockedUntil = claimLeaseMs === undefined ? null : new Date(now.getTime() + claimLeaseMs);
  const duplicatesSince = new Date(now.getTime() - DUPLICATE_WINDOW_MS);
  const { rows, callbacks } = await buildProcessings({ raw, envelope, repository, rules, now, lockedUntil, parser, checks });
  if (rows.length === 0) return { accepted: 0, processingIds: [], pendingIds: [], deliveryIds: [], claims: [] };

  const processingIds = await repository.createProcessings(rows, { duplicatesSince });
  const written = new Set(processingIds);
  const pending = rows.filter((row) => written.has(row.id) && row.status === PROCESSING_STATUS.PENDING);
  return {
    accepted: processingIds.length,
    processingIds,
    pendingIds: pending.map((row) => row.id),
    deliveryIds: pending.flatMap((row) => row.deliveries.map(({ id }) => id)),
    claims: lockedUntil ? pending.flatMap((row) => toClaims(row, lockedUntil, callbacks.get(row.emailCallbackId)!)) : [],
  };
}

/**
 * Routes the envelope (a database lookup, here), then parses the message once in a parsing thread,
 * which builds the webhook body of every callback that gets one and the inbox row's summary. The
 * parsed message never reaches this thread: only bytes and the summary come back.
 */
async function buildProcessings({
  raw,
  envelope,
  repository,
  rules,
  now,
  lockedUntil,
  parser,
  checks,
}: {
  raw: Buffer | SpooledMessage;
  envelope: InboundEnvelope;
  repository: InboundRepository;
  rules: InboundRules;
  now: Date;
  lockedUntil: Date | null;
  parser: MessageParser;
  checks: MessageChecks | undefined;
}): Promise<{ rows: NewProcessing[]; callbacks: Map<string, InboundCallback> }> {
  const routes = await routeRecipients({ to: envelope.to, repository, rules });
  const sender = normalizeSender(envelope.from);
  const planned = routes.map(({ callback, recipients }) => {
    const [first] = recipients as [RoutedRecipient, ...RoutedRecipient[]];
    const decision = decideStatus(callback, sender);
    return {
      id: createId("emailProcessing"),
      callback,
      recipients,
      first,
      decision,
      isPending: decision.status === PROCESSING_STATUS.PENDING,
    };
  });
  const payloadRequests: WebhookPayloadRequest[] = planned
    .filter((plan) => plan.isPending)
    .map(({ id, callback, recipients, first }) => ({
      processingId: id,
      emailCallbackId: callback.id,
      address: formatAddress(callback),
      recipient: first.written,
      tag: first.tag,
      // Only this callback's recipients: the others (Bcc among them) belong to other users.
      envelope: { from: sender, to: recipients.map((recipient) => recipient.address) },
      attachmentDelivery: callback.attachmentDelivery,
    }));
  // The endpoints of each address to be delivered, chosen by their filters in the parsing thread.
  const selections: EndpointSelection[] = planned
    .filter((plan) => plan.isPending)
    .map(({ callback, first }) => ({
      recipient: first.written,
      endpoints: callback.endpoints.map(({ id, filter }) => ({ id, filter: (filter ?? null) as EndpointFilter | null })),
    }));
  // A large message's bodies are staged while they are made, a spooled one's raw bytes while it is
  // parsed (staged-bodies.ts); given up with it.
  const staged = planStagedBodies({ raw, count: payloadRequests.length, hasRows: planned.length > 0, repository });
  const { writePiece } = staged;
  // Parsed even when no callback matched: a body that is no mail is refused on every route.
  const parsed = ensureParsed(
    await staged.unlessParsed(
      parser.parse({ raw, sender, receivedAt: now, payloads: payloadRequests, selections, checks, writePiece }),
    ),
  );
  const payloads = new Map(payloadRequests.map((request, index) => [request.processingId, index]));
  const taken = new Map(payloadRequests.map((request, index) => [request.processingId, parsed.taken[index] ?? []]));

  const rows: NewProcessing[] = [];
  const callbacks = new Map<string, InboundCallback>();
  const unused: number[] = [];
  for (const { id, callback, first, decision: routed } of planned) {
    callbacks.set(callback.id, callback);
    const endpointIds = taken.get(id) ?? [];
    const decision = takeByEndpoints(applyCheckPolicies(routed, callback, parsed), endpointIds);
    const isPending = decision.status === PROCESSING_STATUS.PENDING;
    const body = payloads.get(id);
    if (body !== undefined && !isPending) unused.push(body);
    rows.push({
      id,
      emailCallbackId: callback.id,
      ...parsed.summary,
      recipient: first.address,
      tag: first.tag,
      ...decision,
      // Kept for a mail that is not processed too: its owner can still look at it (docs/architecture.md).
      rawMessage: staged.toRawMessage(parsed.raw),
      payload: isPending && body !== undefined ? staged.toPayload(parsed.payloads[body]!, body) : null,
      nextAttemptAt: isPending ? now : null,
      deliveries: isPending ? endpointIds.map((endpointId) => ({ id: createId("delivery"), endpointId })) : [],
      lockedUntil: isPending ? lockedUntil : null,
      createdAt: now,
    });
  }
  if (unused.length > 0) await staged.discard(unused);
  return { rows, callbacks };
}

/** The parsed message, or the refusal as an error of this module (parse-pool.ts says why not of the pool's). */
function ensureParsed(outcome: MessageParseOutcome): Extract<MessageParseOutcome, { kind: "parsed" }> {
  if (outcome.kind === "parsed") return outcome;
  if (outcome.kind === "invalid") throw createInvalidMessageError(new Error(outcome.reason));
  if (outcome.kind === "too-complex") throw createMessageTooComplexError(outcome.timeLimitMs);
  throw createParseQueueFullError();
}

/** What the SMTP RCPT check answers for a recipient. */
export type RecipientVerdict = "accepted" | "unknown-domain" | "unknown-address";

/**
 * Whether mail to this address can be accepted (the SMTP RCPT check): its domain is one of the
 * operator's or held by an account ("unknown-domain" otherwise), and an address, enabled or not,
 * routes it ("unknown-address" otherwise). Disabled callbacks still accept mail, so that it shows
 * in the inbox as not-processed.
 */
export async function checkRecipient({
  address,
  repository,
  rules,
}: {
  address: string;
  repository: InboundRepository;
  rules: InboundRules;
}): Promise<RecipientVerdict> {
  const routed = parseAnyRecipient(address);
  if (!routed) return "unknown-address";
  const operatorDomains = operatorDomainsOf(rules);
  if (!operatorDomains.includes(routed.domain) && !(await repository.isServedDomain(routed.domain))) return "unknown-domain";
  return (await repository.findRoute(routed, operatorDomains)) ? "accepted" : "unknown-address";
}
