// Next.js leaves out the Content-Length a route handler's Response sets (its body may have been
// decoded on the way). A download of stored content knows its length exactly, so it names it in
// DOWNLOAD_LENGTH_HEADER as well, and the web role (modules/server/web-role.ts) sends it as the
// response's Content-Length and drops the name (docs/security.md: Large stored content).
export const DOWNLOAD_LENGTH_HEADER = "X-Hookmail-Download-Length";
