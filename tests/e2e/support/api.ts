// Calls our API from a test with the browser context's session (and the Origin better-auth wants).
import type { APIRequestContext } from "@playwright/test";
import { DEFAULT_SERVER } from "./servers";

export async function createEmailCallbackThroughApi(
  request: APIRequestContext,
  username: string,
  // The domain: an operator domain, or one of the user's verified domains.
  { webhookUrl = "https://hooks.example.com/incoming", domain = "hookmail.test" }: { webhookUrl?: string; domain?: string } = {},
) {
  const response = await request.post(`${DEFAULT_SERVER.url}/api/email-callbacks`, {
    headers: { Origin: DEFAULT_SERVER.url },
    data: { domain, username, webhookUrl, allowedOrigins: [] },
  });
  if (response.status() !== 201) throw new Error(`create failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { emailCallback: { id: string; address: string } }).emailCallback;
}

export async function seedProcessings(emailCallbackId: string, count: number) {
  const response = await fetch(`${DEFAULT_SERVER.sinkUrl}/seed/processings`, {
    method: "POST",
    body: JSON.stringify({ emailCallbackId, count }),
  });
  if (!response.ok) throw new Error(`seeding failed: ${await response.text()}`);
}
