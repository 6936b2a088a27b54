// Browser tests: Debian's Chromium (playwright cannot download browsers here) against a started
// production build on a fresh DATA_DIR and its own embedded PostgreSQL server, or a fresh database
// on DATABASE_URL's server (tests/e2e/support/start-test-server.ts).
import { defineConfig, devices } from "@playwright/test";

import {
  E2E_ANALYTICS_HOST,
  E2E_DNS_PORT,
  E2E_FAKE_STRIPE_PORT,
  E2E_PORT,
  E2E_PRIVACY_URL,
  E2E_SINK_PORT,
  E2E_SMTP_PORT,
  E2E_TERMS_URL,
  E2E_VERIFYING_PORT,
  E2E_VERIFYING_SINK_PORT,
  E2E_VERIFYING_SMTP_PORT,
} from "./tests/e2e/support/servers";

const baseURL = `http://localhost:${E2E_PORT}`;

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 10_000, toHaveScreenshot: { maxDiffPixelRatio: 0.02, animations: "disabled" } },
  snapshotPathTemplate: "{testDir}/__screenshots__/{testFilePath}/{arg}{ext}",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], locale: "en-US" } }],
  // Two instances: the default one without email verification, and one that requires it.
  webServer: [
    testServer({
      port: E2E_PORT,
      sinkPort: E2E_SINK_PORT,
      // Delivery journeys use webhook receivers on loopback that the tests start themselves.
      env: {
        AUTH_EMAIL_VERIFICATION_REQUIRED: "false",
        SMTP_PORT: String(E2E_SMTP_PORT),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        // Domain checks ask a DNS server on loopback whose records the tests publish (support/dns.ts).
        E2E_DNS_PORT: String(E2E_DNS_PORT),
        // Billing against a fake Stripe, and analytics sent to a loopback host the tests intercept.
        E2E_FAKE_STRIPE: "1",
        E2E_FAKE_STRIPE_PORT: String(E2E_FAKE_STRIPE_PORT),
        NEXT_PUBLIC_POSTHOG_KEY: "phc_e2e_test",
        NEXT_PUBLIC_POSTHOG_HOST: E2E_ANALYTICS_HOST,
        TERMS_URL: E2E_TERMS_URL,
        PRIVACY_URL: E2E_PRIVACY_URL,
      },
    }),
    testServer({
      port: E2E_VERIFYING_PORT,
      sinkPort: E2E_VERIFYING_SINK_PORT,
      env: { AUTH_EMAIL_VERIFICATION_REQUIRED: "true", SMTP_PORT: String(E2E_VERIFYING_SMTP_PORT) },
    }),
  ],
});

function testServer({ port, sinkPort, env }: { port: number; sinkPort: number; env: Record<string, string> }) {
  return {
    command: "node --import tsx tests/e2e/support/start-test-server.ts",
    url: `http://localhost:${port}/api/health`,
    timeout: 15 * 60_000,
    reuseExistingServer: false,
    // SIGTERM, as a service manager stops the app: it then stops its embedded PostgreSQL server
    // (which runs detached from this process group) before its DATA_DIR is removed. Playwright's
    // default, SIGKILL, would leave the server running.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 30_000 },
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(port),
      BASE_URL: `http://localhost:${port}`,
      E2E_SINK_HTTP_PORT: String(sinkPort),
      AUTH_RATE_LIMIT_ENABLED: "false",
      ...env,
    },
  };
}
