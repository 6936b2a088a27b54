// Pages that features link to from elsewhere in the app: named once, so that a link never depends
// on the feature that renders the page.

/** An address's page, or one of its tabs. */
export function emailCallbackPath(emailCallbackId: string, tab?: "inbox" | "settings"): string {
  const path = `/email-callbacks/${encodeURIComponent(emailCallbackId)}`;
  return tab ? `${path}/${tab}` : path;
}

/** One mail's page, within its address's inbox. */
export function messagePath(emailCallbackId: string, processingId: string): string {
  return `${emailCallbackPath(emailCallbackId, "inbox")}/${encodeURIComponent(processingId)}`;
}

/** The webhook format page (modules/delivery/components/webhook-docs.tsx), and the id of its verification section. */
export const WEBHOOK_DOCS_PATH = "/webhooks";
export const WEBHOOK_DOCS_VERIFY_ANCHOR = "verify";
export const WEBHOOK_DOCS_VERIFY_HREF = `${WEBHOOK_DOCS_PATH}#${WEBHOOK_DOCS_VERIFY_ANCHOR}`;

/** The API reference page (modules/openapi/components/api-reference.tsx). */
export const API_REFERENCE_PATH = "/api-reference";

/** Whether a tab leading to `path` is the current one at `pathname`: its page, or a page within it (a mail of the inbox). */
export function isWithinPath(pathname: string, path: string): boolean {
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** The dashboard's Domains page (users' own domains, docs/domains.md). */
export const DOMAINS_PATH = "/domains";
