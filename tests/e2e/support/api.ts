// Calls our API from a test with the browser context's session (and the Origin better-auth wants).
import type { APIRequestContext } from "@playwright/test";
import { DEFAULT_SERVER } from "./servers";

export async function createEmailCallbackThroughApi(
  request: APIRequestContext,
  username: string,
  // The domain: an operator domain, or one of the user's verified domains.
  {
    webhookUrl = "https://hooks.example.com/incoming",
    domain = "hookmail.test",
    webhookSecret,
  }: { webhookUrl?: string; domain?: string; webhookSecret?: string } = {},
) {
  const response = await request.post(`${DEFAULT_SERVER.url}/api/email-callbacks`, {
    headers: { Origin: DEFAULT_SERVER.url },
    data: { domain, username, webhookUrl, allowedOrigins: [], ...(webhookSecret ? { webhookSecret } : {}) },
  });
  if (response.status() !== 201) throw new Error(`create failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { emailCallback: { id: string; address: string } }).emailCallback;
}

/** `recipients`: the rows' envelope recipients, in turn (seeded@hookmail.test when left out). */
export async function seedProcessings(emailCallbackId: string, count: number, { recipients }: { recipients?: string[] } = {}) {
  const response = await fetch(`${DEFAULT_SERVER.sinkUrl}/seed/processings`, {
    method: "POST",
    body: JSON.stringify({ emailCallbackId, count, recipients }),
  });
  if (!response.ok) throw new Error(`seeding failed: ${await response.text()}`);
}

/**
 * A domain of the signed-in user, added through the API and then marked verified as a passing check
 * would (the test servers have no DNS to check it against); its id.
 */
export async function addVerifiedDomainThroughApi(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.post(`${DEFAULT_SERVER.url}/api/domains`, {
    headers: { Origin: DEFAULT_SERVER.url },
    data: { name },
  });
  if (response.status() !== 201) throw new Error(`adding the domain failed: ${response.status()} ${await response.text()}`);
  const { domain } = (await response.json()) as { domain: { id: string } };
  const verified = await fetch(`${DEFAULT_SERVER.sinkUrl}/seed/verified-domain`, {
    method: "POST",
    body: JSON.stringify({ domainId: domain.id }),
  });
  if (!verified.ok) throw new Error(`verifying the domain failed: ${await verified.text()}`);
  return domain.id;
}

/** Puts the account of `email` on a plan, as a paid checkout would (pro: 10 endpoints per address). */
export async function setPlanThroughSink(email: string, planId: "free" | "pro") {
  const response = await fetch(`${DEFAULT_SERVER.sinkUrl}/seed/plan`, {
    method: "POST",
    body: JSON.stringify({ email, planId }),
  });
  if (!response.ok) throw new Error(`setting the plan failed: ${await response.text()}`);
}
