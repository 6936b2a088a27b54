// Writes made with the session cookie come from the app's own pages only (docs/security.md): a
// browser sends the cookie along with any page's request, so a page elsewhere — another site, or
// another port of the same host — could otherwise act in a signed-in user's account.
//
// A POST, PUT, PATCH or DELETE carried by the cookie must
// - come from the app's own origin (BASE_URL's): the `Origin` header, when sent, equals it, and
//   `Sec-Fetch-Site`, when sent, is `same-origin`; a request with neither (no browser sends a write
//   that way) is refused too: scripts use an API key, which this check does not concern;
// - declare `Content-Type: application/json` (parameters allowed), body or not: a cross-site form
//   cannot send that type without a preflight the app never grants.
// The request's own Host does not count: behind a proxy it is whatever the proxy says, and the
// auth endpoints trust BASE_URL's origin alone as well.
import { AppError } from "../errors/app-error";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const createCrossSiteError = () =>
  new AppError({ code: "request.cross_site", message: "This call must come from the app's own pages." });

export const createUnsupportedMediaTypeError = () =>
  new AppError({ code: "request.unsupported_media_type", message: "The request must be sent as application/json." });

export function isSameOriginRequest(headers: Headers, appOrigin: string): boolean {
  const origin = headers.get("origin");
  const fetchSite = headers.get("sec-fetch-site");
  if (origin === null && fetchSite === null) return false;
  if (origin !== null && origin !== appOrigin) return false;
  if (fetchSite !== null && fetchSite !== "same-origin") return false;
  return true;
}

export function isJsonContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const [mediaType = ""] = contentType.split(";");
  return mediaType.trim().toLowerCase() === "application/json";
}

/** Throws 403 request.cross_site, then 415 request.unsupported_media_type, for a write that breaks the rule. */
export function assertSameOriginJsonWrite(request: Request, baseUrl: string) {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  if (!isSameOriginRequest(request.headers, new URL(baseUrl).origin)) throw createCrossSiteError();
  if (!isJsonContentType(request.headers.get("content-type"))) throw createUnsupportedMediaTypeError();
}
