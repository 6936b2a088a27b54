// The delivery queue's records: a claim on a processing, what an attempt needs and what it gave,
// and the processing's state after it (delivery.repository.ts stores them).
import type { PROCESSING_ERROR, PROCESSING_STATUS } from "@/modules/processings/processings.constants";

export type ClaimedDelivery = {
  id: string;
  lockedUntil: Date;
  /** What the attempt needs, when the claim read it already. */
  target?: DeliveryTarget;
};

export type DeliveryTarget = {
  id: string;
  status: string;
  attemptCount: number;
  payload: Uint8Array | null;
  webhookUrl: string;
  webhookSecret: string | null;
  isCallbackEnabled: boolean;
  isCallbackDeleted: boolean;
};

export type DeliveryAttemptRecord = {
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
};

export type AttemptOutcome = { claim: ClaimedDelivery; attempt: DeliveryAttemptRecord | null; change: ProcessingChange };

/** The processing's state after an attempt (or after deciding none can be made). */
export type ProcessingChange =
  | { status: typeof PROCESSING_STATUS.SUCCESS; webhookResponseStatusCode: number; deliveredAt: Date }
  | { status: typeof PROCESSING_STATUS.PENDING; nextAttemptAt: Date; webhookResponseStatusCode: number | null }
  | {
      status: typeof PROCESSING_STATUS.ERROR;
      error: typeof PROCESSING_ERROR.WEBHOOK_FAILED | typeof PROCESSING_ERROR.UNKNOWN;
      webhookResponseStatusCode: number | null;
    }
  | { status: typeof PROCESSING_STATUS.NOT_PROCESSED; error: typeof PROCESSING_ERROR.NOT_ENABLED };
