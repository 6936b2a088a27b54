// One inbox row in full, for its message page and for programs: the row with its delivery state and
// the exact webhook body sent, the message as received, and one of its attachments. Another user's
// address or row is not found; content past its retention is gone (409 email_processing.message_gone).
import { createEmailProcessingNotFoundError, createMessageGoneError } from "./processings.errors";
import type { ProcessingRecord } from "./processings.models";
import type { ProcessingsRepository } from "./processings.repository";
import { getInboxOwnerOrThrow } from "./processings.usecases";

type ProcessingRef = { emailCallbackId: string; processingId: string; userId: string; repository: ProcessingsRepository };

export type StoredAttachment = { bytes: Buffer; contentType: string; filename: string };

const toBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export async function getEmailProcessingDetail({ emailCallbackId, processingId, userId, repository }: ProcessingRef): Promise<{
  emailProcessing: ProcessingRecord & { attemptCount: number; nextAttemptAt: Date | null };
  /** The JSON text sent to the webhook, byte for byte; null once the content is gone (or none was built). */
  webhookBody: string | null;
}> {
  await getInboxOwnerOrThrow({ emailCallbackId, userId, repository });
  const row = await repository.findProcessingDetail({ id: processingId, emailCallbackId });
  if (!row) throw createEmailProcessingNotFoundError();
  const { payload, ...emailProcessing } = row;
  return { emailProcessing, webhookBody: payload ? toBuffer(payload).toString("utf8") : null };
}

export async function getRawMessage({ emailCallbackId, processingId, userId, repository }: ProcessingRef): Promise<Buffer> {
  await getInboxOwnerOrThrow({ emailCallbackId, userId, repository });
  const raw = await repository.findRawMessage({ id: processingId, emailCallbackId });
  if (raw === undefined) throw createEmailProcessingNotFoundError();
  if (raw === null) throw createMessageGoneError();
  return toBuffer(raw);
}

/** The attachment at `index` in the payload's list, decoded from the stored message (in a parsing thread). */
export async function getStoredAttachment({
  index,
  extractAttachment,
  ...ref
}: ProcessingRef & {
  index: number;
  extractAttachment: (raw: Buffer, index: number) => Promise<StoredAttachment | null>;
}): Promise<StoredAttachment> {
  const attachment = await extractAttachment(await getRawMessage(ref), index);
  if (!attachment) throw createEmailProcessingNotFoundError();
  return attachment;
}
