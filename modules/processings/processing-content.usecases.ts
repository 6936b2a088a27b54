// One inbox row in full, for its message page and for programs: the row with its delivery state and
// the exact webhook body sent (shortened for the message page when large), downloads of the body and
// of the message as received (streamed a slice at a time), and one of its attachments. Another user's
// address or row is not found; content past its retention is gone (409 email_processing.message_gone).
import type { ConcurrencyGate } from "@/modules/content-links/attachment-gate";
import type { DownloadedContent } from "@/modules/content-links/content-links.usecases";
import { createEmailProcessingNotFoundError, createMessageGoneError } from "./processings.errors";
import type { ProcessingRecord } from "./processings.models";
import type { ProcessingsRepository } from "./processings.repository";
import { getInboxOwnerOrThrow } from "./processings.usecases";
import { SHORTENED_WEBHOOK_BODY_ABOVE_BYTES, shortenWebhookBody } from "./shortened-webhook-body";

type ProcessingRef = { emailCallbackId: string; processingId: string; userId: string; repository: ProcessingsRepository };

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
  /** The JSON text sent to the webhook, byte for byte unless shortened; null once the content is gone (or none was built). */
  webhookBody: string | null;
  /** The size of the body sent, in bytes; null with no body. */
  webhookBodyBytes: number | null;
  isWebhookBodyShortened: boolean;
}> {
  await getInboxOwnerOrThrow({ emailCallbackId, userId, repository });
  const row = await repository.findProcessingDetail({ id: processingId, emailCallbackId });
  if (!row) throw createEmailProcessingNotFoundError();
  const { payload, ...emailProcessing } = row;
  const isWebhookBodyShortened = isShortened && payload !== null && payload.byteLength > SHORTENED_WEBHOOK_BODY_ABOVE_BYTES;
  const body = payload && isWebhookBodyShortened ? shortenWebhookBody(payload) : payload;
  return {
    emailProcessing,
    webhookBody: body ? body.toString("utf8") : null,
    webhookBodyBytes: payload?.byteLength ?? null,
    isWebhookBodyShortened,
  };
}

/** The JSON body sent to the webhook, byte for byte, as a download streamed a slice at a time. */
export const openWebhookBody = (ref: ProcessingRef) =>
  openContent(ref, "payload", { contentType: "application/json", filename: `${ref.processingId}.json` });

/** The message as received, as a download streamed a slice at a time. */
export const openRawMessage = (ref: ProcessingRef) =>
  openContent(ref, "rawMessage", { contentType: "message/rfc822", filename: `${ref.processingId}.eml` });

async function openContent(
  { emailCallbackId, processingId, userId, repository }: ProcessingRef,
  part: "rawMessage" | "payload",
  about: { contentType: string; filename: string },
): Promise<DownloadedContent> {
  await getInboxOwnerOrThrow({ emailCallbackId, userId, repository });
  const opened = await repository.openContent({ id: processingId, emailCallbackId, part });
  if (opened === undefined) throw createEmailProcessingNotFoundError();
  if (opened === null) throw createMessageGoneError();
  return { ...about, byteLength: opened.byteLength, body: opened.stream };
}

/** The attachment at `index` in the payload's list, decoded from the stored message (in a parsing thread). */
export async function getStoredAttachment({
  index,
  extractAttachment,
  gate,
  emailCallbackId,
  processingId,
  userId,
  repository,
}: ProcessingRef & {
  index: number;
  extractAttachment: (raw: Buffer, index: number) => Promise<StoredAttachment | null>;
  /** Bounds the attachments decoded at once (content-links/attachment-gate.ts). */
  gate: ConcurrencyGate;
}): Promise<StoredAttachment> {
  // Whose inbox it is, before taking a place at the gate: a stranger's request holds none.
  await getInboxOwnerOrThrow({ emailCallbackId, userId, repository });
  const attachment = await gate.run(async () => {
    const raw = await repository.findRawMessage({ id: processingId, emailCallbackId });
    if (raw === undefined) throw createEmailProcessingNotFoundError();
    if (raw === null) throw createMessageGoneError();
    return extractAttachment(raw, index);
  });
  if (!attachment) throw createEmailProcessingNotFoundError();
  return attachment;
}
