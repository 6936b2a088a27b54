// What the inbox's routes accept: a page of the inbox, filtered by status and by a text over sender
// and subject, and which failed mails to redeliver at once. One schema per route, bounded. The inbox
// page reads its view from the URL by the same rules without zod (inbox-view.ts: no zod in the browser).
import { z } from "zod";
import { INBOX_SEARCH_MAX_LENGTH, PROCESSING_STATUS, PROCESSING_STATUSES } from "./processings.constants";

/** A page of the inbox: which page, and how many mails a page holds. */
const inboxPageQuerySchema = z.object({
  pageIndex: z.coerce.number().int().min(0).max(1_000_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(15),
});

/** An empty query parameter (`?status=&q=`, as a form sends it) means no filter. */
const emptyAsAbsent = (value: unknown) => (value === "" ? undefined : value);

export const inboxStatusFilterSchema = z.preprocess(emptyAsAbsent, z.enum(PROCESSING_STATUSES).optional());

export const inboxSearchSchema = z
  .string()
  .trim()
  .max(INBOX_SEARCH_MAX_LENGTH)
  .optional()
  .transform((text) => (text ? text : undefined));

/** `GET …/processings?status=&q=&pageIndex=&pageSize=`: `q` matches sender or subject, case-insensitively, anywhere. */
export const listProcessingsQuerySchema = inboxPageQuerySchema.extend({
  status: inboxStatusFilterSchema,
  q: inboxSearchSchema,
});

/**
 * `GET …/processings/{processingId}?webhookBody=`: `exact` (the default) gives the body as sent;
 * `shortened` leaves out the attachments' content of a body over 1 MiB (the message page).
 */
export const processingDetailQuerySchema = z.object({
  webhookBody: z.preprocess(emptyAsAbsent, z.enum(["exact", "shortened"]).optional()),
});

export type InboxFilter = { status?: (typeof PROCESSING_STATUSES)[number]; q?: string };

/**
 * `POST …/redeliver`: the failed mails (status error; no other status for now) created from `since`
 * (included) to `until` (excluded), each bound optional.
 */
export const redeliverProcessingsBodySchema = z
  .object({
    status: z.literal(PROCESSING_STATUS.ERROR),
    since: z.iso.datetime({ offset: true }).optional(),
    until: z.iso.datetime({ offset: true }).optional(),
  })
  .refine(({ since, until }) => !since || !until || Date.parse(since) <= Date.parse(until), {
    path: ["until"],
    message: "until must not be before since.",
  })
  .transform(({ status, since, until }) => ({
    status,
    since: since ? new Date(since) : undefined,
    until: until ? new Date(until) : undefined,
  }));

export type RedeliverProcessingsInput = z.output<typeof redeliverProcessingsBodySchema>;

/** `POST …/processings/{id}/redeliver`: one endpoint's delivery, or (no body, or no endpointId) the mail's failed ones. */
export const redeliverProcessingBodySchema = z.object({
  endpointId: z.string().min(1).max(128).optional().describe("The endpoint whose delivery of the mail restarts (`ept_…`)."),
});

export type RedeliverProcessingInput = z.output<typeof redeliverProcessingBodySchema>;
