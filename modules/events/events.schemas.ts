// What GET /api/email-callbacks/{id}/events accepts: `?include=webhook`, `&endpoint=<endpoint id>` and a
// Last-Event-ID header.
import { z } from "zod";
import { createInvalidQueryError } from "@/modules/shared/errors/app-error";
import { EVENT_STREAM_INCLUDES } from "./events.constants";

export const eventStreamQuerySchema = z.object({
  include: z.enum(EVENT_STREAM_INCLUDES).optional(),
  /** With include=webhook: the `email.received` events are that endpoint's requests (one of the address's endpoints). */
  endpoint: z.string().min(1).max(100).optional(),
});

/** An event id as the stream writes it: the event's sequence number. */
export const lastEventIdSchema = z.string().regex(/^\d{1,18}$/);

/** The Last-Event-ID a client resumes after: null when absent; 400 request.invalid_query when it is no event id. */
export function parseLastEventId(value: string | null): string | null {
  if (value === null || value === "") return null;
  const parsed = lastEventIdSchema.safeParse(value.trim());
  if (!parsed.success) {
    throw createInvalidQueryError([
      { path: "Last-Event-ID", code: "invalid_format", message: "Last-Event-ID must be an event id of this stream." },
    ]);
  }
  return parsed.data;
}
