// The settings the benchmarks share: the domain their products receive mail for and the address their
// mails go to, how many mails are in flight at a time and how long a run waits for them to arrive, and
// the configuration of a product process (bench/*.product.ts). It imports nothing, so a product
// process loads none of the benchmarks' own tools with it.

export const BENCH_DOMAIN = "hookmail.test";
export const BENCH_ADDRESS = `bench@${BENCH_DOMAIN}`;
/** Mails in flight at a time (SMTP sessions in all): BENCH_CONCURRENCY, default 8. */
export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
/** How long a run waits for its mails to reach the sink. */
export const DRAIN_TIMEOUT_MS = 180_000;

/**
 * A product process's configuration: its DATA_DIR, mail for BENCH_DOMAIN without the mail checks,
 * and webhooks to the loopback sink allowed; `settings` on top.
 */
export function productSettings(dataDir: string, settings: Record<string, string>): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    EMAIL_DOMAINS: BENCH_DOMAIN,
    MAIL_AUTH_CHECKS: "false",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    ...settings,
  };
}
