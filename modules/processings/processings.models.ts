// The inbox rows as the API shows them.
import type { ProcessingStatus } from "./processings.constants";

export type ApiEmailProcessing = {
  id: string;
  fromAddress: string;
  /** The envelope recipient as the sender wrote it (tag and case included): on a pattern or catch-all, which address the mail was sent to. */
  recipient: string;
  subject: string;
  status: ProcessingStatus;
  error: string | null;
  webhookResponseStatusCode: number | null;
  createdAt: string;
};

export type ProcessingRecord = {
  id: string;
  fromAddress: string;
  recipient: string;
  subject: string;
  status: string;
  error: string | null;
  webhookResponseStatusCode: number | null;
  createdAt: Date;
};

export type ApiProcessingsPage = {
  emailProcessings: ApiEmailProcessing[];
  emailProcessingsCount: number;
  pageIndex: number;
  pageSize: number;
};

export function formatProcessingForApi(processing: ProcessingRecord): ApiEmailProcessing {
  return {
    id: processing.id,
    fromAddress: processing.fromAddress,
    recipient: processing.recipient,
    subject: processing.subject,
    status: processing.status as ProcessingStatus,
    error: processing.error,
    webhookResponseStatusCode: processing.webhookResponseStatusCode,
    createdAt: processing.createdAt.toISOString(),
  };
}

/**
 * A LIKE pattern matching `text` anywhere, every character taken as itself: the pattern's own
 * wildcards (`%`, `_`) and its escape character (`\`) in the text are escaped (used with ESCAPE '\').
 */
export function toContainsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** One row as its message page shows it: the inbox row, its attempts so far and the next one while pending. */
export type ApiEmailProcessingDetail = ApiEmailProcessing & { attemptCount: number; nextAttemptAt: string | null };

export function formatProcessingDetailForApi(
  processing: ProcessingRecord & { attemptCount: number; nextAttemptAt: Date | null },
): ApiEmailProcessingDetail {
  return {
    ...formatProcessingForApi(processing),
    attemptCount: processing.attemptCount,
    nextAttemptAt: processing.nextAttemptAt?.toISOString() ?? null,
  };
}

/** One endpoint's delivery of a mail, as the detail call answers it (docs/webhooks.md: Destinations). */
export type ApiProcessingDelivery = {
  endpointId: string;
  status: ProcessingStatus;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
};

export function formatProcessingDeliveryForApi(delivery: {
  endpointId: string;
  status: ProcessingStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
}): ApiProcessingDelivery {
  return {
    endpointId: delivery.endpointId,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    lastStatusCode: delivery.lastStatusCode,
  };
}

/** One webhook call of a processing, as stored. */
export type StoredDeliveryAttempt = {
  id: string;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The first 1 KiB of the response body. */
  responseBody: string | null;
  /** The endpoint the attempt was made to; null for attempts older than endpoints. */
  endpointId: string | null;
};

export type ApiDeliveryAttempt = Omit<StoredDeliveryAttempt, "attemptedAt"> & { attemptedAt: string };

export function formatDeliveryAttemptForApi(attempt: StoredDeliveryAttempt): ApiDeliveryAttempt {
  return {
    id: attempt.id,
    attemptedAt: attempt.attemptedAt.toISOString(),
    statusCode: attempt.statusCode,
    durationMs: attempt.durationMs,
    error: attempt.error,
    responseBody: attempt.responseBody,
    endpointId: attempt.endpointId,
  };
}
