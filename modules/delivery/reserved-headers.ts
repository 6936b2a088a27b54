// The header names an endpoint's own headers may not take (docs/webhooks.md: Endpoints), apart from
// the signing code so that the endpoint form can check them in the browser.

/**
 * Names an endpoint may not set: those Hookmail sets (`content-type`, `user-agent`) or that frame
 * the request (`host`, `content-length`, `transfer-encoding`, `connection` and the other hop-by-hop
 * ones, `expect`), and every `webhook-*` and `x-hookmail-*` name.
 */
const RESERVED_HEADER_NAMES: ReadonlySet<string> = new Set([
  "user-agent",
  "host",
  "content-length",
  "content-type",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "upgrade",
  "expect",
]);
const RESERVED_HEADER_PREFIXES = ["webhook-", "x-hookmail-"] as const;

/** Whether an endpoint's custom header may not have this name (any case). */
export function isReservedHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED_HEADER_NAMES.has(lower) || RESERVED_HEADER_PREFIXES.some((prefix) => lower.startsWith(prefix));
}
