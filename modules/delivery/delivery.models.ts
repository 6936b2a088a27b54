// The delivery queue's records: a claim on a delivery (one mail to one endpoint), what an attempt
// needs and what it gave, and the delivery's state after it (delivery.repository.ts stores them).
import type { PROCESSING_ERROR, PROCESSING_STATUS } from "@/modules/processings/processings.constants";

export type ClaimedDelivery = {
  id: string;
  lockedUntil: Date;
  /** What the attempt needs, when the claim read it already. */
  target?: DeliveryTarget;
};

/**
 * A body stored in slices (docs/architecture.md: Large values), read from the database a slice at a
 * time each time it is opened: once to sign it, once to send it. Null: the value went.
 */
export type StoredBody = { byteLength: number; open: () => Promise<ReadableStream<Uint8Array> | null> };

/** A small body, at hand; a large one, stored. */
export type DeliveryBody = Uint8Array | StoredBody;

export type DeliveryTarget = {
  /** The delivery. */
  id: string;
  /** The mail's processing: every endpoint's `webhook-id`. */
  processingId: string;
  /** The envelope recipient the mail reached the address by. */
  recipient: string;
  endpointId: string;
  status: string;
  attemptCount: number;
  /** What is sent: the webhook body (json) or the message as received (raw); null once dropped. */
  body: DeliveryBody | null;
  url: string;
  format: "json" | "raw";
  signingScheme: "hmac" | "ed25519" | "none";
  secret: string | null;
  publicKey: string | null;
  privateKeyEncrypted: string | null;
  /** The endpoint's own headers. */
  headers: Record<string, string>;
  /** Null: the configured webhook timeout. */
  timeoutMs: number | null;
  /** The endpoint and its address are enabled. */
  isEnabled: boolean;
  /** The endpoint or its address was deleted. */
  isDeleted: boolean;
};

export type DeliveryAttemptRecord = {
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
};

export type AttemptOutcome = { claim: ClaimedDelivery; attempt: DeliveryAttemptRecord | null; change: ProcessingChange };

/**
 * The delivery's state after an attempt (or after deciding none can be made); its processing's follows
 * (`webhookResponseStatusCode` is the delivery's last status code).
 */
export type ProcessingChange =
  | { status: typeof PROCESSING_STATUS.SUCCESS; webhookResponseStatusCode: number; deliveredAt: Date }
  | { status: typeof PROCESSING_STATUS.PENDING; nextAttemptAt: Date; webhookResponseStatusCode: number | null }
  | {
      status: typeof PROCESSING_STATUS.ERROR;
      error: typeof PROCESSING_ERROR.WEBHOOK_FAILED | typeof PROCESSING_ERROR.UNKNOWN;
      webhookResponseStatusCode: number | null;
    }
  | { status: typeof PROCESSING_STATUS.NOT_PROCESSED; error: typeof PROCESSING_ERROR.NOT_ENABLED };
