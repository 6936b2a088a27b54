// The rules of an address's live event stream (docs/webhooks.md: Live events): only its owner opens
// it (another user's address is not found, as in every call), a user holds a bounded number of
// streams at once (each counted until its response has ended), and a stream opens only once the
// process listens for changes. With an endpoint, the webhooks it carries are that endpoint's requests: one
// of the address's live endpoints, else not found.
import { createEmailCallbackNotFoundError } from "@/modules/email-callbacks/email-callbacks.errors";
import { createEndpointNotFoundError } from "@/modules/endpoints/endpoints.errors";
import { AppError, createRateLimitedError } from "@/modules/shared/errors/app-error";
import { createEventStream, type EventStreamLimits, type EventStreamOptions } from "./event-stream";
import { EVENT_STREAM_LIMITS } from "./events.constants";

/** Seconds a user over the stream limit is told to wait (Retry-After). */
const TOO_MANY_STREAMS_RETRY_SECONDS = 30;

export async function openProcessingEventStream({
  lastEventId,
  limits = EVENT_STREAM_LIMITS,
  now = () => new Date(),
  ...options
}: Omit<EventStreamOptions, "limits" | "now" | "endpoint"> & {
  /** The endpoint whose requests the `email.received` events are (`?endpoint=`), or null/absent for the address's webhook. */
  endpointId?: string | null;
  /** The Last-Event-ID the client resumes after, or null for events from now on. */
  lastEventId: string | null;
  limits?: EventStreamLimits & { maxStreamsPerUser: number };
  now?: () => Date;
}): Promise<ReadableStream<Uint8Array>> {
  const { endpointId, ...streamOptions } = options;
  const { emailCallbackId, userId, listener, repository, logger } = streamOptions;
  const emailCallback = await repository.findOwnedEmailCallback({ id: emailCallbackId, userId });
  if (!emailCallback) throw createEmailCallbackNotFoundError();
  const endpoint = endpointId ? await repository.findEndpointOfAddress({ id: endpointId, emailCallbackId }) : null;
  if (endpointId && !endpoint) throw createEndpointNotFoundError();
  // Counting and registering happen in one turn of the event loop: two requests cannot both pass.
  if (listener.countStreams(userId) >= limits.maxStreamsPerUser) {
    throw createRateLimitedError(TOO_MANY_STREAMS_RETRY_SECONDS);
  }
  const stream = createEventStream({ ...streamOptions, endpoint, limits, now });
  try {
    await stream.start(lastEventId);
  } catch (error) {
    stream.discard();
    logger.warn({ emailCallbackId, err: error }, "An event stream could not start");
    throw new AppError({
      code: "service.unavailable",
      message: "Live events are unavailable for a moment: try again shortly.",
      cause: error,
    });
  }
  return stream.readable;
}
