// The endpoint dialog's values and what they become for the API (docs/webhooks.md: Endpoints): a new
// endpoint's body, or the fields an edit changed. The filter's rows keep a header field's name apart
// (`header` + `x-priority` in the form, `header:x-priority` in the API), and the value of every
// condition as typed text (a spam score becomes a number).
import type { EndpointFormat, SigningScheme } from "@/modules/delivery/delivery.constants";
import {
  FILTER_HEADER_FIELD_PREFIX,
  FILTER_SCORE_OPERATORS,
  FILTER_SPAM_SCORE_FIELD,
  FILTER_TEXT_FIELDS,
  FILTER_TEXT_OPERATORS,
  type FilterMatch,
  type FilterScoreOperator,
  type FilterTextOperator,
} from "../endpoint-filter.constants";
import type { EndpointFilter, FilterCondition } from "../endpoint-filter.schemas";
import type { ApiEndpoint } from "../endpoints.models";
import { type CreateEndpointInput, toEndpointHeaders, type UpdateEndpointInput } from "../endpoints.schemas";

/** A condition's field as the form's select offers it: `header` stands for `header:<headerName>`. */
export const FILTER_FORM_FIELDS = [...FILTER_TEXT_FIELDS, "header", FILTER_SPAM_SCORE_FIELD] as const;
export type FilterFormField = (typeof FILTER_FORM_FIELDS)[number];

export type FilterConditionRow = { field: FilterFormField; headerName: string; op: string; value: string };

/** `none`: every mail; else the conditions, all or any of which must hold. */
export type FilterMode = "none" | FilterMatch;

export type EndpointFormValues = {
  url: string;
  format: EndpointFormat;
  signingScheme: SigningScheme;
  /** HMAC only: a secret of the user's own; empty: generated (new) or kept (edit). */
  secret: string;
  /** Milliseconds as typed; empty: the configured default. */
  timeoutMs: string;
  isEnabled: boolean;
  headers: { name: string; value: string }[];
  filterMode: FilterMode;
  conditions: FilterConditionRow[];
};

/** A new condition row: the subject containing something. */
export function getEmptyConditionRow(): FilterConditionRow {
  return { field: "subject", headerName: "", op: "contains", value: "" };
}

export function getEmptyEndpointFormValues(): EndpointFormValues {
  return {
    url: "",
    format: "json",
    signingScheme: "hmac",
    secret: "",
    timeoutMs: "",
    isEnabled: true,
    headers: [],
    filterMode: "none",
    conditions: [getEmptyConditionRow()],
  };
}

function toConditionRow({ field, op, value }: FilterCondition): FilterConditionRow {
  if (field.startsWith(FILTER_HEADER_FIELD_PREFIX)) {
    return { field: "header", headerName: field.slice(FILTER_HEADER_FIELD_PREFIX.length), op, value: String(value) };
  }
  return { field: field as FilterFormField, headerName: "", op, value: String(value) };
}

/** The dialog's values for an endpoint being edited: its timeout as the API gives it, its filter's rows. */
export function getEndpointFormValues(endpoint: ApiEndpoint): EndpointFormValues {
  return {
    url: endpoint.url,
    format: endpoint.format,
    signingScheme: endpoint.signing.scheme,
    secret: "",
    timeoutMs: String(endpoint.timeoutMs),
    isEnabled: endpoint.isEnabled,
    headers: Object.entries(endpoint.headers).map(([name, value]) => ({ name, value })),
    filterMode: endpoint.filter ? endpoint.filter.match : "none",
    conditions: endpoint.filter ? endpoint.filter.conditions.map(toConditionRow) : [getEmptyConditionRow()],
  };
}

/** The operators a field takes: `gt` / `lt` for the spam score, the text comparisons for the rest. */
export function getOperatorsOfField(field: FilterFormField): readonly (FilterTextOperator | FilterScoreOperator)[] {
  return field === FILTER_SPAM_SCORE_FIELD ? FILTER_SCORE_OPERATORS : FILTER_TEXT_OPERATORS;
}

function toCondition({ field, headerName, op, value }: FilterConditionRow): FilterCondition {
  if (field === FILTER_SPAM_SCORE_FIELD) return { field, op: op as FilterScoreOperator, value: Number(value.trim()) };
  const apiField = field === "header" ? (`${FILTER_HEADER_FIELD_PREFIX}${headerName.trim()}` as const) : field;
  return { field: apiField, op: op as FilterCondition["op"] & string, value } as FilterCondition;
}

/** The filter of the form's rows; null when the endpoint takes every mail. */
export function toEndpointFilter(values: Pick<EndpointFormValues, "filterMode" | "conditions">): EndpointFilter | null {
  if (values.filterMode === "none") return null;
  return { match: values.filterMode, conditions: values.conditions.map(toCondition) };
}

function toTimeoutMs(typed: string): number | null {
  return typed.trim() === "" ? null : Number(typed.trim());
}

/** The body of POST …/endpoints: a new endpoint signs with HMAC (a secret of the user's, or generated) or Ed25519. */
export function toCreateEndpointInput(values: EndpointFormValues): CreateEndpointInput {
  const signing: CreateEndpointInput["signing"] =
    values.signingScheme === "ed25519"
      ? { scheme: "ed25519" }
      : values.secret === ""
        ? { scheme: "hmac" }
        : { scheme: "hmac", secret: values.secret };
  return {
    url: values.url.trim(),
    format: values.format,
    signing,
    headers: toEndpointHeaders(values.headers),
    timeoutMs: toTimeoutMs(values.timeoutMs),
    filter: toEndpointFilter(values),
    isEnabled: values.isEnabled,
  };
}

const isSameJson = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/** Same headers, whatever their order (the API does not keep it). */
const isSameHeaders = (left: Record<string, string>, right: Record<string, string>) =>
  isSameJson(Object.entries(left).sort(), Object.entries(right).sort());

function getSigningChange(endpoint: ApiEndpoint, values: EndpointFormValues): UpdateEndpointInput["signing"] | undefined {
  if (values.signingScheme === "ed25519") return endpoint.signing.scheme === "ed25519" ? undefined : { scheme: "ed25519" };
  if (values.signingScheme === "hmac") {
    if (values.secret !== "") return { scheme: "hmac", secret: values.secret };
    return endpoint.signing.scheme === "hmac" ? undefined : { scheme: "hmac" };
  }
  // `none` is offered only to an endpoint that has it: keeping it is no change.
  return undefined;
}

/** The body of PUT …/endpoints/{id}: only what differs from the endpoint as the server has it. */
export function toUpdateEndpointInput(endpoint: ApiEndpoint, values: EndpointFormValues): UpdateEndpointInput {
  const changes: UpdateEndpointInput = {};
  if (values.url.trim() !== endpoint.url) changes.url = values.url.trim();
  if (values.format !== endpoint.format) changes.format = values.format;
  const signing = getSigningChange(endpoint, values);
  if (signing) changes.signing = signing;
  const headers = toEndpointHeaders(values.headers);
  if (!isSameHeaders(headers, endpoint.headers)) changes.headers = headers;
  const timeoutMs = toTimeoutMs(values.timeoutMs);
  if (timeoutMs !== endpoint.timeoutMs) changes.timeoutMs = timeoutMs;
  const filter = toEndpointFilter(values);
  if (!isSameJson(filter, endpoint.filter)) changes.filter = filter;
  if (values.isEnabled !== endpoint.isEnabled) changes.isEnabled = values.isEnabled;
  return changes;
}
