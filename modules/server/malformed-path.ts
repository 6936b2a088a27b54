// A request whose path has a malformed percent-escape (`/api/email-callbacks/%E0%A4%A`, a lone `%`)
// names nothing, and Next.js's router, which decodes the path before any route runs, would answer
// it with a plain 500. The web role answers it first (docs/security.md): an API path with the API's
// 404 `resource.not_found`, as any other path segment that names nothing; a page with a plain 400.
import type http from "node:http";
import { createNotFoundError } from "@/modules/shared/errors/app-error";
import { formatErrorBody } from "@/modules/shared/errors/error-response";

export function hasMalformedPathEscape(url: string): boolean {
  const pathname = url.split(/[?#]/, 1)[0] ?? "";
  if (!pathname.includes("%")) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/** Answers a request whose path cannot be decoded, and says whether it did. */
export function answerMalformedPath(request: http.IncomingMessage, response: http.ServerResponse): boolean {
  const url = request.url ?? "/";
  if (!hasMalformedPathEscape(url)) return false;
  request.resume();
  if (url === "/api" || url.startsWith("/api/")) {
    const error = createNotFoundError();
    response.writeHead(error.httpStatus, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    response.end(JSON.stringify(formatErrorBody(error)));
  } else {
    response.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" });
    response.end("Bad request: the path has a malformed percent-escape.");
  }
  return true;
}
