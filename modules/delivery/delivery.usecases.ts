// The rules of one delivery attempt (docs/webhooks.md): sign and POST the stored bytes to one endpoint
// (the webhook body, or the message as received), classify the answer, and record the attempt with the
// delivery's next state: success, a scheduled retry, or error / webhook-failed once no retry remains.
// Anything unexpected ends in error / unknown, logged. The processing follows its deliveries.
import type { KeyObject } from "node:crypto";
import type { Config } from "@/modules/config/config";
import { eachSlice } from "@/modules/db/sliced-values";
import { PROCESSING_ERROR, PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import type { Logger } from "@/modules/shared/logging/logger";
import type { StoredBody } from "./delivery.models";
import type { ClaimedDelivery, DeliveryAttemptRecord, DeliveryRepository, ProcessingChange } from "./delivery.repository";
import { classifyAttempt, computeNextAttemptAt } from "./delivery.schedule";
import {
  buildDeliveryHeaders,
  buildSignedDeliveryHeaders,
  createDeliverySigner,
  type DeliveryEndpoint,
  toDeliverySigning,
} from "./endpoint-headers";
import type { WebhookClient, WebhookResult } from "./webhook-client";

export type DeliveryOutcome =
  /** `endsAlert`: this delivery ended its address's delivery alert, the recovery mail is due (delivery-alerts.ts). */
  | { kind: "success"; endsAlert?: boolean }
  | { kind: "retry-scheduled" | "failed" | "not-enabled" | "unknown-error" }
  /** Nothing done: the delivery is gone, no longer pending, or another worker took the claim over. */
  | { kind: "skipped"; reason: "not-found" | "not-pending" | "claim-lost" };

const MAX_LOCATION_LENGTH = 500;

/**
 * The signature of a stored body, read once a slice at a time (it is read again to be sent): an
 * HMAC never holds more than a slice; Ed25519 reads its message twice, so its signer keeps the slices.
 */
async function signStoredBody(
  body: StoredBody,
  { endpoint, id, timestamp }: { endpoint: DeliveryEndpoint; id: string; timestamp: number },
): Promise<string | null> {
  const stream = await body.open();
  if (!stream) throw new Error(`the stored body of ${id} went before its attempt`);
  const signer = createDeliverySigner(endpoint.signing, id, timestamp);
  let byteLength = 0;
  for await (const slice of eachSlice(stream)) {
    signer.update(slice);
    byteLength += slice.byteLength;
  }
  if (byteLength !== body.byteLength) throw new Error(`the stored body of ${id} changed while it was signed`);
  return signer.sign();
}

/** Performs one attempt of a delivery this worker has claimed (`lockedUntil` is the claim's lease). */
export async function attemptDelivery({
  id,
  lockedUntil,
  target: claimedTarget,
  repository,
  client,
  config,
  now,
  random,
  logger,
  signingKeyEncryptionKey,
}: ClaimedDelivery & {
  repository: DeliveryRepository;
  client: WebhookClient;
  config: Pick<Config, "webhook">;
  now: () => Date;
  random: () => number;
  logger: Logger;
  /** Decrypts Ed25519 endpoints' private keys (signing-keys.ts); without it, such an endpoint's attempt fails. */
  signingKeyEncryptionKey?: KeyObject;
}): Promise<DeliveryOutcome> {
  const claim = { id, lockedUntil };
  const attemptedAt = now();
  try {
    const target = claimedTarget ?? (await repository.findDeliveryTarget(id));
    if (!target) return { kind: "skipped", reason: "not-found" };
    if (target.status !== PROCESSING_STATUS.PENDING) return { kind: "skipped", reason: "not-pending" };
    if (!target.isEnabled || target.isDeleted) {
      return await record(
        repository,
        logger,
        claim,
        null,
        { status: PROCESSING_STATUS.NOT_PROCESSED, error: PROCESSING_ERROR.NOT_ENABLED },
        "not-enabled",
      );
    }
    if (!target.body) throw new Error(`delivery ${id} is pending without a body`);

    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const endpoint = {
      format: target.format,
      headers: target.headers,
      signing: toDeliverySigning(target, signingKeyEncryptionKey),
    };
    const signed = { endpoint, id: target.processingId, timestamp, recipient: target.recipient };
    const { body } = target;
    const result = await client.postWebhook({
      url: target.url,
      headers:
        body instanceof Uint8Array
          ? buildDeliveryHeaders({ ...signed, body })
          : buildSignedDeliveryHeaders({ ...signed, signature: await signStoredBody(body, signed) }),
      body,
      timeoutMs: target.timeoutMs ?? config.webhook.timeoutMs,
      allowPrivateTargets: config.webhook.allowPrivateTargets,
    });
    const attempt = toAttemptRecord(attemptedAt, result);
    const statusCode = result.kind === "response" ? result.statusCode : null;
    const classification = classifyAttempt(result);

    if (classification === "success") {
      const change: ProcessingChange = {
        status: PROCESSING_STATUS.SUCCESS,
        webhookResponseStatusCode: statusCode ?? 0,
        deliveredAt: now(),
      };
      return await record(repository, logger, claim, attempt, change, "success");
    }
    const nextAttemptAt =
      classification === "retry"
        ? computeNextAttemptAt({
            attemptsMade: target.attemptCount + 1,
            finishedAt: now(),
            retryAfterMs: result.kind === "response" ? result.retryAfterMs : undefined,
            random,
          })
        : null;
    if (nextAttemptAt) {
      const change: ProcessingChange = {
        status: PROCESSING_STATUS.PENDING,
        nextAttemptAt,
        webhookResponseStatusCode: statusCode,
      };
      return await record(repository, logger, claim, attempt, change, "retry-scheduled");
    }
    const change = endInError(PROCESSING_ERROR.WEBHOOK_FAILED, statusCode);
    return await record(repository, logger, claim, attempt, change, "failed");
  } catch (error) {
    logger.error({ deliveryId: id, err: error }, "Delivery failed unexpectedly");
    try {
      const attempt: DeliveryAttemptRecord = {
        attemptedAt,
        statusCode: null,
        durationMs: Math.max(0, now().getTime() - attemptedAt.getTime()),
        error: "internal error",
        responseBody: null,
      };
      const change = endInError(PROCESSING_ERROR.UNKNOWN, null);
      return await record(repository, logger, claim, attempt, change, "unknown-error");
    } catch (recordError) {
      // The claim's lease runs out and another attempt follows: nothing is lost.
      logger.error({ deliveryId: id, err: recordError }, "Could not record the failure of a delivery");
      return { kind: "unknown-error" };
    }
  }
}

/** The final state of a delivery that gave up. */
function endInError(
  error: typeof PROCESSING_ERROR.WEBHOOK_FAILED | typeof PROCESSING_ERROR.UNKNOWN,
  webhookResponseStatusCode: number | null,
): ProcessingChange {
  return { status: PROCESSING_STATUS.ERROR, error, webhookResponseStatusCode };
}

async function record(
  repository: DeliveryRepository,
  logger: Logger,
  claim: ClaimedDelivery,
  attempt: DeliveryAttemptRecord | null,
  change: ProcessingChange,
  kind: Exclude<DeliveryOutcome["kind"], "skipped">,
): Promise<DeliveryOutcome> {
  const { isClaimHeld, endsAlert } = await repository.recordAttempt({ claim, attempt, change });
  if (!isClaimHeld) {
    logger.warn({ deliveryId: claim.id, outcome: kind }, "The claim expired during the attempt: its outcome was not applied");
    return { kind: "skipped", reason: "claim-lost" };
  }
  if (kind === "success" && endsAlert) return { kind, endsAlert };
  return { kind } as DeliveryOutcome;
}

function toAttemptRecord(attemptedAt: Date, result: WebhookResult): DeliveryAttemptRecord {
  if (result.kind !== "response") {
    return {
      attemptedAt,
      statusCode: null,
      durationMs: result.durationMs,
      error: `${result.kind}: ${result.error}`,
      responseBody: null,
    };
  }
  const isRedirect = result.statusCode >= 300 && result.statusCode < 400;
  return {
    attemptedAt,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    error: isRedirect
      ? `redirect not followed${result.location ? ` (Location: ${result.location.slice(0, MAX_LOCATION_LENGTH)})` : ""}`
      : null,
    responseBody: result.bodyExcerpt,
  };
}
