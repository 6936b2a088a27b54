// Limits of an address's endpoints (docs/webhooks.md: Endpoints). The words of formats and signing
// schemes live with the delivery that acts on them (modules/delivery/delivery.constants.ts).

/** An endpoint's own headers: at most this many. */
export const MAX_ENDPOINT_HEADERS = 10;
/** A header name is an HTTP token of at most this many characters. */
export const ENDPOINT_HEADER_NAME_MAX_LENGTH = 256;
/** A header value is at most this many bytes (UTF-8). */
export const ENDPOINT_HEADER_VALUE_MAX_BYTES = 1024;

/** How long one attempt to an endpoint may take (the delivery's numbers); null in storage means the configured WEBHOOK_TIMEOUT_MS. */
export { ENDPOINT_TIMEOUT_MAX_MS, ENDPOINT_TIMEOUT_MIN_MS } from "@/modules/delivery/delivery.constants";
