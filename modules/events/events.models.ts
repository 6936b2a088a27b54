// The live event stream's wire format (docs/webhooks.md: Live events): each event as a
// Server-Sent Events message, `processing` data named like the inbox rows of the API, and the
// `email.received` data a local receiver verifies exactly as a production webhook.
import { signWebhook } from "@/modules/delivery/webhook-signature";
import { type ApiEmailProcessing, formatProcessingForApi } from "@/modules/processings/processings.models";
import type { EVENT_STREAM_EVENTS } from "./events.constants";
import type { ProcessingEventRow } from "./events.repository";

export type ApiProcessingEvent = ApiEmailProcessing & { attemptCount: number };

export type ApiEmailReceivedEvent = {
  headers: { "webhook-id": string; "webhook-timestamp": string; "webhook-signature"?: string };
  /** The exact JSON text the webhook is sent. */
  body: string;
};

export function formatProcessingEvent(row: ProcessingEventRow): ApiProcessingEvent {
  return {
    ...formatProcessingForApi({
      id: row.emailProcessingId,
      fromAddress: row.fromAddress,
      subject: row.subject,
      status: row.status,
      error: row.error,
      webhookResponseStatusCode: row.webhookResponseStatusCode,
      createdAt: row.createdAt,
    }),
    attemptCount: row.attemptCount,
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
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers: ApiEmailReceivedEvent["headers"] = {
    "webhook-id": emailProcessingId,
    "webhook-timestamp": String(timestamp),
  };
  if (secret) headers["webhook-signature"] = signWebhook({ id: emailProcessingId, timestamp, body, secret });
  return { headers, body };
}

type EventName = (typeof EVENT_STREAM_EVENTS)[keyof typeof EVENT_STREAM_EVENTS];

/**
 * One Server-Sent Events message. The data is one line of JSON (JSON escapes line breaks). A
 * message without `id` leaves the client's last event id as it was.
 */
export function formatServerSentEvent({ id, event, data }: { id?: string; event: EventName; data: unknown }): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export const formatServerSentComment = (text: string) => `: ${text}\n\n`;
