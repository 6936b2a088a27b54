// Where the upgrade dialog sends people who want to support the project or talk to us.
export const BILLING_LINKS = {
  SPONSOR_URL: "https://github.com/sponsors/hookmail",
  CONTACT_URL: "mailto:hello@hookmail.dev",
} as const;

/** Checkout and the billing portal open in a new tab, with no handle back to this one. */
export function openInNewTab(url: string) {
  window.open(url, "_blank", "noopener");
}
