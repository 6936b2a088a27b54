// A Stripe client (the process's one is made by the composition root, docs/architecture.md: The parts). STRIPE_API_URL points the SDK at another server (a local fake in
// tests); production leaves it unset and the SDK talks to api.stripe.com.
import Stripe from "stripe";
import type { Config } from "@/modules/config/config";
import { STRIPE_REQUEST_TIMEOUT_MS } from "./billing.constants";

type BillingConfig = Config["billing"];

export function createStripeClient(billing: Pick<BillingConfig, "secretKey" | "apiUrl">): Stripe {
  if (!billing.secretKey) throw new Error("createStripeClient needs STRIPE_SECRET_KEY");
  return new Stripe(billing.secretKey, {
    timeout: STRIPE_REQUEST_TIMEOUT_MS,
    appInfo: { name: "Hookmail" },
    ...(billing.apiUrl ? toStripeAddress(billing.apiUrl) : {}),
  });
}

/** `http://127.0.0.1:12111` → the SDK's host, port and protocol options. */
export function toStripeAddress(apiUrl: string): { host: string; port: number; protocol: "http" | "https" } {
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  const port = url.port ? Number(url.port) : protocol === "http" ? 80 : 443;
  // An IPv6 literal comes bracketed from URL; the HTTP client wants it bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { host, port, protocol };
}
