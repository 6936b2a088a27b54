// The `hookmail` command against the app as `npm start` runs it (README: The hookmail command): a
// developer signs up, creates an address and an API key over HTTP, runs `hookmail listen` with
// `--forward-to` a local server, and a mail sent by SMTP reaches that local server with the exact body
// and headers whose signature verifies with the address's secret, as the production webhook does.
import { createTransport } from "nodemailer";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { startCli } from "@/tests/support/cli-process";
import { startWebhookSink } from "@/tests/support/webhook-sink";
import { createEmailCallback, signUp } from "./support/app-account";
import { createAppProcess } from "./support/app-process";
import { setUpReliabilityTest } from "./support/reliability-setup";

const SECRET = "reliability-cli-secret-0123456789abcdef";
/** A first start may build the app (minutes). */
const TEST_TIMEOUT_MS = 12 * 60_000;
const { cleanUps } = setUpReliabilityTest();

async function createApiKey(baseUrl: string, cookie: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/api-keys`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl, cookie },
    body: JSON.stringify({ name: "hookmail listen" }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`creating an API key failed: ${response.status} ${text}`);
  return (JSON.parse(text) as { token: string }).token;
}

describe("hookmail listen against the started app", () => {
  it(
    "forwards a mail sent by SMTP to a local server, signed so that it verifies with the address's secret",
    async () => {
      const production = await startWebhookSink();
      const local = await startWebhookSink();
      cleanUps.push(
        () => production.close(),
        () => local.close(),
      );
      const app = await createAppProcess({});
      cleanUps.push(() => app.removeDataDir());
      cleanUps.push(() => app.stop());
      await app.start();

      const { cookie } = await signUp(app.baseUrl);
      const callback = await createEmailCallback({
        baseUrl: app.baseUrl,
        cookie,
        domain: app.emailDomain,
        username: "local-dev",
        webhookUrl: production.url("/production"),
        webhookSecret: SECRET,
      });
      const apiKey = await createApiKey(app.baseUrl, cookie);

      const listen = startCli(["listen", "--address", callback.address, "--forward-to", local.url("/hook")], {
        ...process.env,
        HOOKMAIL_URL: app.baseUrl,
        HOOKMAIL_API_KEY: apiKey,
      });
      cleanUps.push(() => {
        if (listen.child.exitCode === null) listen.child.kill("SIGKILL");
      });
      await expect.poll(listen.stderr, { timeout: 30_000 }).toContain("Ready");

      const smtp = createTransport({ host: "127.0.0.1", port: app.smtpPort, secure: false, ignoreTLS: true });
      cleanUps.push(() => smtp.close());
      await smtp.sendMail({
        envelope: { from: "carol@example.org", to: [callback.address] },
        from: "Carol <carol@example.org>",
        to: callback.address,
        subject: "Hello from SMTP",
        text: "Forwarded to localhost.",
      });

      await local.waitForRequests(1);
      const forwarded = local.requests[0]!;
      const headers = {
        "webhook-id": String(forwarded.headers["webhook-id"]),
        "webhook-timestamp": String(forwarded.headers["webhook-timestamp"]),
        "webhook-signature": String(forwarded.headers["webhook-signature"]),
      };
      const payload = new Webhook(SECRET, { format: "raw" }).verify(forwarded.body.toString("utf8"), headers);
      expect(payload).toMatchObject({ type: "email.received", data: { subject: "Hello from SMTP" } });
      await production.waitForRequests(1);
      expect(forwarded.body.equals(production.requests[0]!.body)).toBe(true);
      await expect.poll(listen.stdout, { timeout: 10_000 }).toMatch(/carol@example\.org {2}"Hello from SMTP" {2}-> 200/);

      listen.child.kill("SIGINT");
      expect(await listen.exited).toBe(0);
      await app.stop();
    },
    TEST_TIMEOUT_MS,
  );
});
