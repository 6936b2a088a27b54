import { describe, expect, it } from "vitest";
import { webhookSecretSchema } from "./email-callbacks.schemas";
import { generateWebhookSecret } from "./random-webhook-secret";

describe("generateWebhookSecret", () => {
  it("is 42 alphanumeric characters", () => {
    for (let i = 0; i < 100; i += 1) expect(generateWebhookSecret()).toMatch(/^[A-Za-z0-9]{42}$/);
  });

  it("differs on every call", () => {
    const secrets = new Set(Array.from({ length: 100 }, () => generateWebhookSecret()));
    expect(secrets.size).toBe(100);
  });

  it("is accepted as a webhook secret by the email form", () => {
    expect(webhookSecretSchema.safeParse(generateWebhookSecret()).success).toBe(true);
  });
});
