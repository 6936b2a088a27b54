// One inbox row in full, for its message page and for programs: the row with its delivery state and
// the exact webhook body sent (shortened for the message page when large), downloads of the body and
// of the message as received (streamed a slice at a time), and one of its attachments. Another user's
// address or row is not found; content past its retention is gone (409 email_processing.message_gone).
// Each download holds a place at the download gate until it is sent, counted against its caller
// (content-links/download-gate.ts).
import { type DownloadedContent, toDownloadedContent } from "@/modules/content-links/content-links.usecases";
import type { DownloadGate } from "@/modules/content-links/download-gate";
import { openHeldDownload, STREAMED_DOWNLOAD_BYTES } from "@/modules/content-links/download-stream";
import type { ProcessingDelivery } from "./processing-deliveries.repository";
import { createEmailProcessingNotFoundError, createMessageGoneError } from "./processings.errors";
import type { ProcessingRecord } from "./processings.models";
import type { ProcessingsRepository } from "./processings.repository";
import { getInboxOwnerOrThrow } from "./processings.usecases";
import { SHORTENED_WEBHOOK_BODY_ABOVE_BYTES, shortenWebhookBody } from "./shortened-webhook-body";

type ProcessingRef = { emailCallbackId: string; processingId: string; userId: string; repository: ProcessingsRepository };

type GatedDownload = {
  /** Bounds what downloads hold at once (content-links/download-gate.ts). */
  gate: DownloadGate;
  /** Aborted when the client goes: a download still waiting for room gives up its turn. */
  signal?: AbortSignal;
};

/** An API download counts against its caller, never against the links of the caller's content. */
const callerHolders = (userId: string, gate: DownloadGate) => [{ key: `caller:${userId}`, max: gate.limits.perOwner }];

export type StoredAttachment = { bytes: Buffer; contentType: string; filename: string };

export async function getEmailProcessingDetail({
  emailCallbackId,
  processingId,
  userId,
  repository,
  isShortened = false,
}: ProcessingRef & {
  /** Leave out the attachments' content of a body over SHORTENED_WEBHOOK_BODY_ABOVE_BYTES (the message page). */
  isShortened?: boolean;
}): Promise<{
  emailProcessing: ProcessingRecord & { attemptCount: number; nextAttemptAt: Date | null };
  /** Its delivery to each endpoint, in the endpoints' creation order. */
  deliveries: ProcessingDelivery[];
  /** The JSON text sent to the webhook, byte for byte unless shortened; null once the content is gone (or none was built). */
  webhookBody: string | null;
  /** The size of the body sent, in bytes; null with no body. */
  webhookBodyBytes: number | null;
  isWebhookBodyShortened: boolean;
}> {
  await getInboxOwnerOrThrow({ emailCallbackId, userId, repository });
  const row = await repository.findProcessingDetail({ id: processingId, emailCallbackId });
  if (!row) throw createEmailProcessingNotFoundError();
  const deliveries = await repository.listProcessingDeliveries(row.id);
  const { payload, ...emailProcessing } = row;
  const isWebhookBodyShortened = isShortened && payload !== null && payload.byteLength > SHORTENED_WEBHOOK_BODY_ABOVE_BYTES;
  const body = payload && isWebhookBodyShortened ? shortenWebhookBody(payload) : payload;
  return {
    emailProcessing,
    deliveries,
    webhookBody: body ? body.toString("utf8") : null,
    webhookBodyBytes: payload?.byteLength ?? null,
    isWebhookBodyShortened,
  };
}

/** The JSON body sent to the webhook, byte for byte, as a download streamed a slice at a time. */
export const openWebhookBody = (ref: ProcessingRef & GatedDownload) =>
  openContent(ref, "payload", { contentType: "application/json", filename: `${ref.processingId}.json` });

/** The message as received, as a download streamed a slice at a time. */
export const openRawMessage = (ref: ProcessingRef & GatedDownload) =>
  openContent(ref, "rawMessage", { contentType: "message/rfc822", filename: `${ref.processingId}.eml` });

async function openContent(
  { emailCallbackId, processingId, userId, repository, gate, signal }: ProcessingRef & GatedDownload,
  part: "rawMessage" | "payload",
  about: { contentType: string; filename: string },
): Promise<DownloadedContent> {
  await getInboxOwnerOrThrow({ emailCallbackId, userId, repository });
  return openHeldDownload({
    gate,
    claim: { bytes: STREAMED_DOWNLOAD_BYTES, holders: callerHolders(userId, gate), signal },
    open: async () => {
      const opened = await repository.openContent({ id: processingId, emailCallbackId, part });
      if (opened === undefined) throw createEmailProcessingNotFoundError();
      if (opened === null) throw createMessageGoneError();
      return { ...about, byteLength: opened.byteLength, body: opened.stream };
    },
  });
}

/**
 * The attachment at `index` in the payload's list, decoded from the stored message (in a parsing
 * thread), as a download.
 */
export async function openStoredAttachment({
  index,
  extractAttachment,
  gate,
  signal,
  emailCallbackId,
  processingId,
  userId,
  repository,
}: ProcessingRef &
  GatedDownload & {
    index: number;
    extractAttachment: (raw: Buffer, index: number) => Promise<StoredAttachment | null>;
  }): Promise<DownloadedContent> {
  // Whose inbox it is, before taking a place at the gate: a stranger's request holds none.
  await getInboxOwnerOrThrow({ emailCallbackId, userId, repository });
  const rawMessageBytes = await repository.measureRawMessage({ id: processingId, emailCallbackId });
  if (rawMessageBytes === undefined) throw createEmailProcessingNotFoundError();
  if (rawMessageBytes === null) throw createMessageGoneError();
  // While decoded, an attachment holds its message and its own bytes, which are no larger.
  return openHeldDownload({
    gate,
    claim: { bytes: 2 * rawMessageBytes, holders: callerHolders(userId, gate), signal },
    open: async (place) => {
      const raw = await repository.findRawMessage({ id: processingId, emailCallbackId });
      if (raw === undefined) throw createEmailProcessingNotFoundError();
      if (raw === null) throw createMessageGoneError();
      const attachment = await extractAttachment(raw, index);
      if (!attachment) throw createEmailProcessingNotFoundError();
      place.shrinkTo(attachment.bytes.byteLength);
      return toDownloadedContent(attachment);
    },
  });
}
