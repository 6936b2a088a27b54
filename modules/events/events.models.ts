// The live event stream's wire format (docs/webhooks.md: Live events): each event as a
// Server-Sent Events message, `processing` data named like the inbox rows of the API, and the
// `email.received` data a local receiver verifies exactly as a production webhook.
import { signWebhook } from "@/modules/delivery/webhook-signature";
import { type ApiEmailProcessing, formatProcessingForApi } from "@/modules/processings/processings.models";
import { EVENT_STREAM_EVENTS } from "./events.constants";
import type { ProcessingEventRow } from "./events.repository";

export type ApiProcessingEvent = ApiEmailProcessing & {
  attemptCount: number;
  /** The endpoint whose delivery's change (an attempt's outcome, a redelivery) this event tells; null for the arrival. */
  endpointId: string | null;
};

export type ApiEmailReceivedEvent = {
  /** With `?endpoint=`, every header that endpoint is sent (Content-Type, its custom headers…). */
  headers: { "webhook-id": string; "webhook-timestamp": string; "webhook-signature"?: string } & Record<string, string>;
  /** The exact JSON text the webhook is sent; with `bodyEncoding: "base64"`, the base64 of the exact bytes. */
  body: string;
  /** Present for a `raw` endpoint's request: the message as received, in base64. */
  bodyEncoding?: "base64";
};

export function formatProcessingEvent(row: ProcessingEventRow): ApiProcessingEvent {
  return {
    ...formatProcessingForApi({
      id: row.emailProcessingId,
      fromAddress: row.fromAddress,
      recipient: row.recipient,
      subject: row.subject,
      status: row.status,
      error: row.error,
      webhookResponseStatusCode: row.webhookResponseStatusCode,
      createdAt: row.createdAt,
    }),
    attemptCount: row.attemptCount,
    endpointId: row.endpointId,
  };
}

/**
 * The webhook of a mail as its deliveries send it: the same `webhook-id` (the processing id), the
 * body byte for byte, signed now with the address's secret (no signature when it has none).
 */
export function formatEmailReceivedEvent({
  emailProcessingId,
  body,
  secret,
  now,
}: {
  emailProcessingId: string;
  body: string;
  secret: string | null;
  now: Date;
}): ApiEmailReceivedEvent {
  const timestamp = toWebhookTimestamp(now);
  const signature = secret ? signWebhook({ id: emailProcessingId, timestamp, body, secret }) : undefined;
  return { headers: formatEmailReceivedHeaders({ emailProcessingId, timestamp, signature }), body };
}

export const toWebhookTimestamp = (now: Date) => Math.floor(now.getTime() / 1000);

export function formatEmailReceivedHeaders({
  emailProcessingId,
  timestamp,
  signature,
}: {
  emailProcessingId: string;
  timestamp: number;
  signature: string | undefined;
}): ApiEmailReceivedEvent["headers"] {
  const headers: ApiEmailReceivedEvent["headers"] = { "webhook-id": emailProcessingId, "webhook-timestamp": String(timestamp) };
  if (signature) headers["webhook-signature"] = signature;
  return headers;
}

/**
 * An `email.received` message written in parts, for a body too large to hold at once: `head`, then
 * the body's text escaped piece by piece (escapeJsonStringPart), then `tail` make the very text
 * formatServerSentEvent writes for the whole event.
 */
export function formatEmailReceivedFrame(
  headers: ApiEmailReceivedEvent["headers"] | Record<string, string>,
  { bodyEncoding }: Pick<ApiEmailReceivedEvent, "bodyEncoding"> = {},
): { head: string; tail: string } {
  return {
    head: `event: ${EVENT_STREAM_EVENTS.EMAIL_RECEIVED}\ndata: {"headers":${JSON.stringify(headers)},"body":"`,
    tail: `"${bodyEncoding ? `,"bodyEncoding":${JSON.stringify(bodyEncoding)}` : ""}}\n\n`,
  };
}

/** A piece of a JSON string's content, escaped as JSON.stringify escapes it within the whole string. */
export const escapeJsonStringPart = (text: string) => JSON.stringify(text).slice(1, -1);

type EventName = (typeof EVENT_STREAM_EVENTS)[keyof typeof EVENT_STREAM_EVENTS];

/**
 * One Server-Sent Events message. The data is one line of JSON (JSON escapes line breaks). A
 * message without `id` leaves the client's last event id as it was.
 */
export function formatServerSentEvent({ id, event, data }: { id?: string; event: EventName; data: unknown }): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export const formatServerSentComment = (text: string) => `: ${text}\n\n`;
