// The `hookmail` command end to end (README: The hookmail command), run as a child process with
// Node against the app's API route handlers served over HTTP on a free port, with the product's SMTP
// listener, pipeline and delivery worker on a fresh database: `listen` forwards a mail sent by SMTP
// to a local server, signed as in production, and keeps forwarding after a network loss; `send`
// sends an .eml file; `tail` prints processing events; a bad key, an unknown address and an
// unreachable server each end it with one line and exit code 1.
import { type ChildProcess, execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createTransport } from "nodemailer";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as eventsRoute from "@/app/api/email-callbacks/[emailCallbackId]/events/route";
import * as testMailRoute from "@/app/api/email-callbacks/[emailCallbackId]/test-mail/route";
import * as emailCallbacksRoute from "@/app/api/email-callbacks/route";
import { createDeliveryWorker, type DeliveryWorker } from "@/modules/delivery/delivery-worker";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { silentLogger } from "@/modules/shared/logging/logger";
import { HOOKMAIL_CLI, type RunningCli, startCli } from "@/tests/support/cli-process";
import { type ProductSmtpListener, startProductSmtpListener } from "@/tests/support/product-smtp";
import { testDispatcher } from "@/tests/support/recording-dispatcher";
import { type RouteHttpServer, startRouteHttpServer } from "@/tests/support/route-http-server";
import { type RouteTestApp, startRouteTestApp } from "@/tests/support/route-test-app";
import { seedEmailCallback } from "@/tests/support/seed";
import { startWebhookSink, type WebhookSink } from "@/tests/support/webhook-sink";

const SECRET = "cli-webhook-secret-0123456789abcdef";
const run = promisify(execFile);

let app: RouteTestApp;
let server: RouteHttpServer;
let smtp: ProductSmtpListener;
let worker: DeliveryWorker;
/** The address's real webhook, and the local server the command forwards to. */
let webhook: WebhookSink;
let local: WebhookSink;
let apiKey: string;
let emailCallbackId: string;
const address = "cli@hookmail.test";
const children: ChildProcess[] = [];
let scratch: string;

beforeAll(async () => {
  app = await startRouteTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "5000" });
  const owner = await app.signUp("cli");
  apiKey = (await app.createApiKey(owner, "cli")).headers.Authorization.replace("Bearer ", "");
  webhook = await startWebhookSink();
  local = await startWebhookSink();
  ({ id: emailCallbackId } = await seedEmailCallback(app.database, {
    userId: owner.userId,
    username: "cli",
    webhookUrl: webhook.url("/production"),
    webhookSecret: SECRET,
  }));
  worker = createDeliveryWorker({
    metrics: createProcessMetrics(),
    database: app.database,
    config: app.config,
    logger: silentLogger,
  });
  testDispatcher.use(worker);
  smtp = await startProductSmtpListener(app.services);
  server = await startRouteHttpServer([
    { method: "GET", path: "/api/email-callbacks", handler: emailCallbacksRoute.GET },
    { method: "GET", path: "/api/email-callbacks/:emailCallbackId/events", handler: eventsRoute.GET },
    { method: "POST", path: "/api/email-callbacks/:emailCallbackId/test-mail", handler: testMailRoute.POST },
  ]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-cli-"));
});
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => stopChild(child)));
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
  testDispatcher.use(undefined);
  await worker?.stop();
  await webhook?.close();
  await local?.close();
  await app?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const environment = (overrides: Record<string, string> = {}) => ({
  ...process.env,
  HOOKMAIL_URL: server.baseUrl,
  HOOKMAIL_API_KEY: apiKey,
  ...overrides,
});

function start(args: string[], env = environment()): RunningCli {
  const running = startCli(args, env);
  children.push(running.child);
  return running;
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGINT");
  await exited;
}

async function runOnce(args: string[], env = environment()) {
  try {
    const { stdout, stderr } = await run(process.execPath, [HOOKMAIL_CLI, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const sendBySmtp = (subject: string) =>
  createTransport({ host: "127.0.0.1", port: smtp.getPort(), secure: false, ignoreTLS: true }).sendMail({
    envelope: { from: "carol@example.org", to: [address] },
    from: "Carol <carol@example.org>",
    to: address,
    subject,
    text: `Body of ${subject}`,
  });

const headerValues = (headers: Record<string, string | string[] | undefined>) => ({
  "webhook-id": String(headers["webhook-id"]),
  "webhook-timestamp": String(headers["webhook-timestamp"]),
  "webhook-signature": String(headers["webhook-signature"]),
});

describe("hookmail listen", () => {
  it("forwards a mail sent by SMTP to the local server, signed as its webhook is, and prints a line", async () => {
    const listen = start(["listen", "--address", address, "--forward-to", local.url("/hook")]);
    await expect.poll(listen.stderr, { timeout: 15_000 }).toContain(`Ready: listening to ${address}`);
    local.reset();
    webhook.reset();
    await sendBySmtp("Forwarded by the command");

    await local.waitForRequests(1);
    const forwarded = local.requests[0]!;
    expect(forwarded.path).toBe("/hook");
    expect(forwarded.headers["content-type"]).toBe("application/json");
    const payload = new Webhook(SECRET, { format: "raw" }).verify(
      forwarded.body.toString("utf8"),
      headerValues(forwarded.headers),
    );
    expect(payload).toMatchObject({ type: "email.received", data: { subject: "Forwarded by the command" } });
    await webhook.waitForRequests(1);
    expect(forwarded.body.equals(webhook.requests[0]!.body)).toBe(true);
    expect(forwarded.headers["webhook-id"]).toBe(webhook.requests[0]!.headers["webhook-id"]);
    await expect.poll(listen.stdout).toMatch(/\d\d:\d\d:\d\d {2}carol@example\.org {2}"Forwarded by the command" {2}-> 200\n/);
  });

  it("reconnects after a network loss and forwards the mail that arrived meanwhile (Last-Event-ID)", async () => {
    const listen = start(["listen", "--address", emailCallbackId, "--forward-to", local.url("/hook")]);
    await expect.poll(listen.stderr, { timeout: 15_000 }).toContain("Ready");
    await sendBySmtp("Before the loss");
    await expect.poll(listen.stdout, { timeout: 15_000 }).toContain('"Before the loss"');
    local.reset();
    server.dropConnections();
    await sendBySmtp("During the loss");
    await expect.poll(listen.stderr, { timeout: 15_000 }).toContain("Reconnected");
    await expect.poll(listen.stdout, { timeout: 15_000 }).toContain('"During the loss"  -> 200');
    expect(local.requests.map((request) => JSON.parse(request.body.toString("utf8")).data.subject)).toEqual(["During the loss"]);
    listen.child.kill("SIGINT");
    expect(await listen.exited).toBe(0);
  });
});

describe("hookmail send and tail", () => {
  it("send posts an .eml file through the address; tail prints its processing events", async () => {
    const tail = start(["tail", "--address", address]);
    await expect.poll(tail.stderr, { timeout: 15_000 }).toContain("Ready");
    const file = path.join(scratch, "hello.eml");
    fs.writeFileSync(
      file,
      ["From: Dave <dave@example.org>", `To: ${address}`, "Subject: Sent from a file", "", "Hello from a file.", ""].join("\r\n"),
    );
    const sent = await runOnce(["send", file, "--address", address]);
    expect(sent).toMatchObject({ code: 0, stdout: `Sent ${file} to ${address}\n` });
    await expect.poll(tail.stdout, { timeout: 15_000 }).toMatch(/pending {2}dave@example\.org {2}"Sent from a file"/);
    await expect.poll(tail.stdout, { timeout: 15_000 }).toMatch(/success 200 {2}dave@example\.org {2}"Sent from a file"/);
  });
});

describe("hookmail errors", () => {
  it("a refused API key ends with one line naming the 401 and exit code 1", async () => {
    const result = await runOnce(["tail", "--address", address], environment({ HOOKMAIL_API_KEY: "hm_not-a-key" }));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("hookmail: the API key was refused (401): check HOOKMAIL_API_KEY or --api-key\n");
  });

  it("an unknown address and an unreachable server each end with one line and exit code 1", async () => {
    const unknown = await runOnce(["send", path.join(scratch, "none.eml"), "--address", "nobody@hookmail.test"]);
    expect(unknown).toMatchObject({ code: 1 });
    const unknownAddress = await runOnce(["tail", "--address", "nobody@hookmail.test"]);
    expect(unknownAddress.code).toBe(1);
    expect(unknownAddress.stderr).toMatch(/^hookmail: unknown address "nobody@hookmail\.test"[^\n]*\n$/);
    const unreachable = await runOnce(["tail", "--address", address, "--url", "http://127.0.0.1:9"]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^hookmail: cannot reach http:\/\/127\.0\.0\.1:9 [^\n]*\n$/);
  });

  it("missing options are a usage error (exit code 2); --help describes each command", async () => {
    expect(await runOnce(["listen", "--address", address])).toMatchObject({ code: 2 });
    const help = await runOnce(["send", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: hookmail send <file.eml> --address <address or id>");
  });
});
