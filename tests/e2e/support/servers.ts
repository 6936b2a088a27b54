// The two test servers of the browser suite (playwright.config.ts starts both). E2E_PORT_OFFSET
// moves every port, so two checkouts on one machine can run the suite at the same time.
const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
export const E2E_PORT = 3210 + OFFSET;
export const E2E_SINK_PORT = 3211 + OFFSET;
export const E2E_VERIFYING_PORT = 3220 + OFFSET;
export const E2E_VERIFYING_SINK_PORT = 3221 + OFFSET;
/** The SMTP listeners of the two servers (the product's MX). */
export const E2E_SMTP_PORT = 2625 + OFFSET;
export const E2E_VERIFYING_SMTP_PORT = 2626 + OFFSET;
/** The default server's DNS_SERVERS: a DNS server on loopback (UDP) that tests publish records on (support/dns.ts). */
export const E2E_DNS_PORT = 2653 + OFFSET;

/** Email verification off: sign-up signs in at once. */
export const DEFAULT_SERVER = { url: `http://localhost:${E2E_PORT}`, sinkUrl: `http://127.0.0.1:${E2E_SINK_PORT}` };
/** Email verification required. */
export const VERIFYING_SERVER = {
  url: `http://localhost:${E2E_VERIFYING_PORT}`,
  sinkUrl: `http://127.0.0.1:${E2E_VERIFYING_SINK_PORT}`,
};

/** The default server's billing runs against a fake Stripe on this port. */
export const E2E_FAKE_STRIPE_PORT = 3212 + OFFSET;
/** The default server's analytics host (nothing listens: tests intercept the browser's requests). */
export const E2E_ANALYTICS_HOST = `http://127.0.0.1:${3299 + OFFSET}`;

/** The default server's legal pages (TERMS_URL, PRIVACY_URL); the verifying server sets none. */
export const E2E_TERMS_URL = "https://legal.hookmail.test/terms";
export const E2E_PRIVACY_URL = "https://legal.hookmail.test/privacy";
