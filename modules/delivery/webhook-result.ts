// What one webhook attempt gave (webhook-client.ts makes it, delivery.schedule.ts judges it): an
// answer with its status, or a failure before any answer.

export type WebhookResponseResult = {
  kind: "response";
  statusCode: number;
  durationMs: number;
  /** The first 1 KiB of the body, as text. */
  bodyExcerpt: string;
  retryAfterMs?: number;
  location?: string;
};

export type WebhookFailureResult = { kind: "network-error" | "timeout" | "blocked-target"; durationMs: number; error: string };

export type WebhookResult = WebhookResponseResult | WebhookFailureResult;
