// How the endpoints' list and dialog name things: the message key of a filter field (keys cannot
// hold the dots of `attachment.filename`), and the parts of a filter's one-line summary.
import { FILTER_HEADER_FIELD_PREFIX } from "../endpoint-filter.constants";
import type { EndpointFilter } from "../endpoint-filter.schemas";
import type { FilterFormField } from "./endpoint-form-values";

const FIELD_MESSAGE_KEYS = {
  from: "from",
  to: "to",
  subject: "subject",
  text: "text",
  "attachment.filename": "attachmentFilename",
  "attachment.contentType": "attachmentContentType",
  "authentication.dmarc": "authenticationDmarc",
  header: "header",
  "spam.score": "spamScore",
} as const satisfies Record<FilterFormField, string>;

export type FilterFieldMessageKey = (typeof FIELD_MESSAGE_KEYS)[FilterFormField];

export function fieldMessageKey(field: FilterFormField): FilterFieldMessageKey {
  return FIELD_MESSAGE_KEYS[field];
}

/**
 * The first condition of a filter, as the list's summary words it, and how many more there are:
 * `{field: "header", headerName: "x-priority", op: "equals", value: "1", moreCount: 2}`.
 */
export function summarizeFilter(filter: EndpointFilter) {
  const [first] = filter.conditions;
  if (!first) return null;
  const isHeader = first.field.startsWith(FILTER_HEADER_FIELD_PREFIX);
  return {
    match: filter.match,
    field: fieldMessageKey(isHeader ? "header" : (first.field as FilterFormField)),
    headerName: isHeader ? first.field.slice(FILTER_HEADER_FIELD_PREFIX.length) : "",
    op: first.op,
    value: String(first.value),
    moreCount: filter.conditions.length - 1,
  };
}
