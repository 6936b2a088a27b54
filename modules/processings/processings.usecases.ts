// The rules of the inbox: its pages, one row's delivery attempts, redelivering a row, and the test
// mail that lands in it. Repositories, the delivery dispatcher and the inbound pipeline come in as
// arguments.
import { createEmailCallbackNotFoundError } from "@/modules/email-callbacks/email-callbacks.errors";
import { formatAddress } from "@/modules/email-callbacks/email-callbacks.models";
import { RATE_LIMITS } from "@/modules/rate-limit/rate-limit.constants";
import type { RateLimitRepository } from "@/modules/rate-limit/rate-limit.repository";
import { ensureWithinRateLimit } from "@/modules/rate-limit/rate-limit.usecases";
import { composeTestMail } from "./compose-test-mail";
import { PROCESSING_STATUS } from "./processings.constants";
import {
  createDeliveryEndpointNotFoundError,
  createDeliveryInProgressError,
  createEmailProcessingNotFoundError,
  createMessageGoneError,
} from "./processings.errors";
import type { ProcessingRecord, StoredDeliveryAttempt } from "./processings.models";
import type { OwnedEmailCallback, ProcessingsRepository } from "./processings.repository";
import type { InboxFilter, RedeliverProcessingsInput } from "./processings.schemas";

type ProcessingRef = { emailCallbackId: string; processingId: string; userId: string };

/** The caller's live address whose inbox is asked for (the inbox's own view of it), or email_callback.not_found. */
export async function getInboxOwnerOrThrow({
  emailCallbackId,
  userId,
  repository,
}: {
  emailCallbackId: string;
  userId: string;
  repository: ProcessingsRepository;
}): Promise<OwnedEmailCallback> {
  const emailCallback = await repository.findEmailCallback(emailCallbackId, userId);
  if (!emailCallback) throw createEmailCallbackNotFoundError();
  return emailCallback;
}

/**
 * Count rows beyond one per hour after which a page read folds the callback's counts: each mail adds
 * a row and every read sums them, so they are folded before they cost more than a few hundred rows.
 */
export const PROCESSING_COUNT_FOLD_THRESHOLD = 200;

/**
 * One page of the caller's live callback's inbox, newest first (email_callback.not_found otherwise),
 * with the callback's total. `pageIndex` is zero-based; a page past the end is empty. With a filter
 * (a status, a text found in the sender or the subject), the page and the total are those of the
 * rows it keeps, counted over the rows themselves rather than the per-hour counts.
 */
export async function listEmailProcessings({
  emailCallbackId,
  userId,
  pageIndex,
  pageSize,
  filter = {},
  repository,
}: {
  emailCallbackId: string;
  userId: string;
  pageIndex: number;
  pageSize: number;
  filter?: InboxFilter;
  repository: ProcessingsRepository;
}): Promise<{ emailProcessings: ProcessingRecord[]; emailProcessingsCount: number; pageIndex: number; pageSize: number }> {
  if (filter.status || filter.q) {
    const rows = { emailCallbackId, status: filter.status, search: filter.q };
    // Read alongside the ownership check; nothing is returned unless the check passes.
    const [, emailProcessingsCount, emailProcessings] = await Promise.all([
      getInboxOwnerOrThrow({ emailCallbackId, userId, repository }),
      repository.countFilteredProcessings(rows),
      repository.listFilteredProcessings({ ...rows, skip: pageIndex * pageSize, take: pageSize }),
    ]);
    return { emailProcessings, emailProcessingsCount, pageIndex, pageSize };
  }
  // The position is read alongside the ownership check; nothing is returned unless the check passes.
  const [, position] = await Promise.all([
    getInboxOwnerOrThrow({ emailCallbackId, userId, repository }),
    repository.findInboxPosition({ emailCallbackId, offset: pageIndex * pageSize }),
  ]);
  const emailProcessings = position.page
    ? await repository.listProcessings({ emailCallbackId, ...position.page, take: pageSize })
    : [];
  if (position.foldableRows > PROCESSING_COUNT_FOLD_THRESHOLD) await repository.foldProcessingCounts(emailCallbackId);
  return { emailProcessings, emailProcessingsCount: position.total, pageIndex, pageSize };
}

/** The processing of the caller's live callback: email_callback.not_found or email_processing.not_found otherwise. */
export async function getEmailProcessingOrThrow({
  emailCallbackId,
  processingId,
  userId,
  repository,
}: ProcessingRef & { repository: ProcessingsRepository }): Promise<ProcessingRecord> {
  await getInboxOwnerOrThrow({ emailCallbackId, userId, repository });
  const processing = await repository.findProcessing({ id: processingId, emailCallbackId });
  if (!processing) throw createEmailProcessingNotFoundError();
  return processing;
}

/** Every webhook call made for the processing, newest first (earlier attempt series included). */
export async function listDeliveryAttempts({
  repository,
  ...ref
}: ProcessingRef & { repository: ProcessingsRepository }): Promise<{ deliveryAttempts: StoredDeliveryAttempt[] }> {
  const processing = await getEmailProcessingOrThrow({ ...ref, repository });
  return { deliveryAttempts: await repository.listDeliveryAttempts(processing.id) };
}

/** The delivery dispatcher, as a redelivery needs it (the route hands in the process's): it takes delivery ids. */
export type Redeliverer = { deliverSoon: (deliveryIds: string[]) => void };

/**
 * Starts a new attempt series on the stored content and hands it to the dispatcher for an attempt
 * now (docs/webhooks.md: Deliveries and redelivery). Without `endpointId`: the mail's deliveries that ended in error
 * (every one when none did); a pending processing is still being delivered
 * (email_processing.delivery_in_progress). With `endpointId`: that endpoint's delivery, when it has
 * ended or waits for its next retry; only an attempt of it running now is in progress; an endpoint
 * with no delivery of the mail, or not the address's, is endpoint.not_found. A mail whose content is
 * gone — dropped after the retention, or never kept because it was not processed — cannot be sent
 * again (email_processing.message_gone). Redeliveries are rate limited per address
 * (RATE_LIMITS.redelivery; over it, 429 request.rate_limited and nothing is sent).
 */
export async function redeliverEmailProcessing({
  repository,
  rateLimits,
  dispatcher,
  endpointId,
  now = new Date(),
  ...ref
}: ProcessingRef & {
  repository: ProcessingsRepository;
  rateLimits: RateLimitRepository;
  dispatcher: Redeliverer;
  endpointId?: string;
  now?: Date;
}): Promise<{ emailProcessing: ProcessingRecord }> {
  const processing = await getEmailProcessingOrThrow({ ...ref, repository });
  await ensureWithinRateLimit({ rule: RATE_LIMITS.redelivery, subject: ref.emailCallbackId, repository: rateLimits });
  if (endpointId !== undefined) {
    const deliveryId = await restartEndpointDeliveryOrThrow({ repository, id: processing.id, endpointId, now, ...ref });
    dispatcher.deliverSoon([deliveryId]);
    return { emailProcessing: await getEmailProcessingOrThrow({ ...ref, repository }) };
  }
  if (processing.status === PROCESSING_STATUS.PENDING) throw createDeliveryInProgressError();
  const deliveryIds = await repository.restartDelivery({ id: processing.id, now });
  if (deliveryIds.length === 0) {
    // Either the body is gone, or a concurrent call restarted it first.
    const current = await repository.findProcessing({ id: processing.id, emailCallbackId: ref.emailCallbackId });
    if (!current) throw createEmailProcessingNotFoundError();
    if (current.status === PROCESSING_STATUS.PENDING) throw createDeliveryInProgressError();
    throw createMessageGoneError();
  }
  dispatcher.deliverSoon(deliveryIds);
  const emailProcessing = await repository.findProcessing({ id: processing.id, emailCallbackId: ref.emailCallbackId });
  if (!emailProcessing) throw createEmailProcessingNotFoundError();
  return { emailProcessing };
}

/** Restarts one endpoint's delivery of a mail, or throws why it may not (see redeliverEmailProcessing). */
async function restartEndpointDeliveryOrThrow({
  repository,
  id,
  endpointId,
  emailCallbackId,
  now,
}: {
  repository: ProcessingsRepository;
  id: string;
  endpointId: string;
  emailCallbackId: string;
  now: Date;
}): Promise<string> {
  const deliveryId = await repository.restartEndpointDelivery({ id, endpointId, emailCallbackId, now });
  if (deliveryId) return deliveryId;
  const state = await repository.findEndpointDeliveryState({ id, endpointId, emailCallbackId });
  if (!state) throw createDeliveryEndpointNotFoundError();
  if (!state.hasContent) throw createMessageGoneError();
  throw createDeliveryInProgressError();
}

/** The most mails one "redeliver all failed" call restarts; the rest stay failed for the next call. */
export const BULK_REDELIVERY_MAX = 1000;

/**
 * Starts a new attempt series, like redeliverEmailProcessing, for every failed mail (status error)
 * of the caller's live callback created within `since`/`until`, up to BULK_REDELIVERY_MAX of them,
 * oldest first, in one statement, and hands them to the dispatcher. A mail whose body is gone is
 * left as it is. Rate limited per address (RATE_LIMITS.bulkRedelivery). Answers how many restarted.
 */
export async function redeliverFailedEmailProcessings({
  emailCallbackId,
  userId,
  input,
  repository,
  rateLimits,
  dispatcher,
  now = new Date(),
}: {
  emailCallbackId: string;
  userId: string;
  input: RedeliverProcessingsInput;
  repository: ProcessingsRepository;
  rateLimits: RateLimitRepository;
  dispatcher: Redeliverer;
  now?: Date;
}): Promise<{ count: number }> {
  await getInboxOwnerOrThrow({ emailCallbackId, userId, repository });
  await ensureWithinRateLimit({ rule: RATE_LIMITS.bulkRedelivery, subject: emailCallbackId, repository: rateLimits });
  const { processingIds, deliveryIds } = await repository.restartFailedDeliveries({
    emailCallbackId,
    since: input.since,
    until: input.until,
    now,
    limit: BULK_REDELIVERY_MAX,
  });
  if (deliveryIds.length > 0) dispatcher.deliverSoon(deliveryIds);
  return { count: processingIds.length };
}

/**
 * The inbound pipeline, as the test mail needs it (the route hands in the real one): the inbox
 * is written by the pipeline, and this module does not depend on it.
 */
export type ReceiveMessage = (message: {
  raw: Buffer;
  envelope: { from: string | null; to: string[] };
}) => Promise<{ accepted: number }>;

/**
 * Runs a sample message to the callback's address through the inbound pipeline, so it shows in the
 * inbox like real mail: delivered, or recorded as not processed when the callback is disabled or
 * its allowed senders leave test@<domain> out. Answers how many processings were created. Test
 * mails are rate limited per address (RATE_LIMITS.testMail; over it, 429 request.rate_limited and
 * nothing is recorded or sent).
 */
export async function sendTestMail({
  emailCallbackId,
  userId,
  repository,
  rateLimits,
  receiveMessage,
  message,
}: {
  emailCallbackId: string;
  userId: string;
  repository: ProcessingsRepository;
  rateLimits: RateLimitRepository;
  receiveMessage: ReceiveMessage;
  /** The caller's own message (sent as message/rfc822), from its From address; the sample mail otherwise. */
  message?: { raw: Buffer; from: string | null };
}): Promise<{ accepted: number }> {
  const emailCallback = await getInboxOwnerOrThrow({ emailCallbackId, userId, repository });
  await ensureWithinRateLimit({ rule: RATE_LIMITS.testMail, subject: emailCallback.id, repository: rateLimits });
  const address = formatAddress(emailCallback);
  const { raw, envelope } = message
    ? { raw: message.raw, envelope: { from: message.from, to: [address] } }
    : await composeTestMail({ address, domain: emailCallback.domain });
  const { accepted } = await receiveMessage({ raw, envelope });
  return { accepted };
}
