// A user and their addresses, set up through the app's HTTP API as a user would: sign up
// (POST /api/auth/sign-up/email), then POST /api/email-callbacks with the session cookie.
import { randomBytes } from "node:crypto";
import type { AppProcess } from "./app-process";

export type CreatedCallback = { id: string; address: string; username: string; webhookUrl: string; webhookSecret: string };

export async function signUp(baseUrl: string): Promise<{ email: string; cookie: string }> {
  const email = `reliability-${randomBytes(4).toString("hex")}@example.com`;
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ email, password: "correct-horse-battery", name: "Reliability" }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${text}`);
  const cookie = response.headers
    .getSetCookie()
    .map((setCookie) => setCookie.split(";")[0] ?? "")
    .filter((pair) => pair.includes("=") && !pair.endsWith("="))
    .join("; ");
  if (!cookie) throw new Error("sign-up answered no session cookie");
  return { email, cookie };
}

export async function createEmailCallback({
  baseUrl,
  cookie,
  domain,
  username,
  webhookUrl,
  webhookSecret,
}: {
  baseUrl: string;
  cookie: string;
  domain: string;
  username: string;
  webhookUrl: string;
  webhookSecret: string;
}): Promise<CreatedCallback> {
  const response = await fetch(`${baseUrl}/api/email-callbacks`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl, cookie },
    body: JSON.stringify({ domain, username, webhookUrl, webhookSecret, allowedOrigins: [] }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`creating ${username}@${domain} failed: ${response.status} ${text}`);
  const { emailCallback } = JSON.parse(text) as { emailCallback: { id: string; address: string } };
  return { id: emailCallback.id, address: emailCallback.address, username, webhookUrl, webhookSecret };
}

/** Signs a user up and creates `usernames.length` addresses, each with its own secret, webhook `${sinkUrl}/<username>`. */
export async function createAccountWithCallbacks({
  baseUrl,
  domain,
  usernames,
  sinkUrl,
}: {
  baseUrl: string;
  domain: string;
  usernames: string[];
  sinkUrl: string;
}): Promise<CreatedCallback[]> {
  const { cookie } = await signUp(baseUrl);
  const callbacks: CreatedCallback[] = [];
  for (const username of usernames) {
    callbacks.push(
      await createEmailCallback({
        baseUrl,
        cookie,
        domain,
        username,
        webhookUrl: `${sinkUrl}/${username}`,
        webhookSecret: `whsec-${randomBytes(16).toString("hex")}`,
      }),
    );
  }
  return callbacks;
}

/**
 * createAccountWithCallbacks on `app`, each address delivering to `${sinkUrl}/<username>`, with its
 * secret put in `secrets` by username: the map the reliability sink checks signatures with.
 */
export async function createAccountOnApp({
  app,
  usernames,
  sinkUrl,
  secrets,
}: {
  app: Pick<AppProcess, "baseUrl" | "emailDomain">;
  usernames: string[];
  sinkUrl: string;
  secrets: Map<string, string>;
}): Promise<CreatedCallback[]> {
  const callbacks = await createAccountWithCallbacks({ baseUrl: app.baseUrl, domain: app.emailDomain, usernames, sinkUrl });
  for (const callback of callbacks) secrets.set(callback.username, callback.webhookSecret);
  return callbacks;
}
