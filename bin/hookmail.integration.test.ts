// The `hookmail` command end to end (README: The hookmail command), run as a child process with
// Node against the app's API route handlers served over HTTP on a free port, with the product's SMTP
// listener, pipeline and delivery worker on a fresh database: `listen` forwards a mail sent by SMTP
// to a local server, signed as in production, and keeps forwarding after a network loss; `send`
// sends an .eml file; `tail` prints processing events; `listen --endpoint` forwards one endpoint's
// requests (a raw one's exact bytes); a bad key, an unknown address or endpoint and an unreachable
// server each end it with one line and exit code 1.
import { type ChildProcess, execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createTransport } from "nodemailer";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as endpointsRoute from "@/app/api/email-callbacks/[emailCallbackId]/endpoints/route";
import * as eventsRoute from "@/app/api/email-callbacks/[emailCallbackId]/events/route";
import * as testMailRoute from "@/app/api/email-callbacks/[emailCallbackId]/test-mail/route";
import * as emailCallbacksRoute from "@/app/api/email-callbacks/route";
import { createDeliveryWorker, type DeliveryWorker } from "@/modules/delivery/delivery-worker";
import { verifyWebhookSignature } from "@/modules/delivery/webhook-signature";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { silentLogger } from "@/modules/shared/logging/logger";
import { HOOKMAIL_CLI, type RunningCli, startCli } from "@/tests/support/cli-process";
import { createEndpointCalls } from "@/tests/support/endpoint-calls";
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
/** An address of two endpoints: the first (JSON, the address's secret), then a raw Ed25519 one; both on `twoSink`. */
const twoAddress = "cli-two@hookmail.test";
let twoSink: WebhookSink;
let rawEndpoint: { id: string; signing: { publicKey: string } };
const children: ChildProcess[] = [];
let scratch: string;

beforeAll(async () => {
  app = await startRouteTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "5000" });
  const owner = await app.signUp("cli");
  const keyHeaders = (await app.createApiKey(owner, "cli")).headers;
  apiKey = keyHeaders.Authorization.replace("Bearer ", "");
  webhook = await startWebhookSink();
  local = await startWebhookSink();
  twoSink = await startWebhookSink();
  const { id: twoId } = await seedEmailCallback(app.database, {
    userId: owner.userId,
    username: "cli-two",
    webhookUrl: twoSink.url("/first"),
    webhookSecret: SECRET,
  });
  const added = await createEndpointCalls(() => app).addEndpoint(
    twoId,
    { url: twoSink.url("/raw"), format: "raw", signing: { scheme: "ed25519" }, headers: { "X-Team": "mail" } },
    keyHeaders,
  );
  rawEndpoint = added.body?.endpoint;
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
    signingKeyEncryptionKey: app.services.signingKeyEncryptionKey(),
  });
  testDispatcher.use(worker);
  smtp = await startProductSmtpListener(app.services);
  server = await startRouteHttpServer([
    { method: "GET", path: "/api/email-callbacks", handler: emailCallbacksRoute.GET },
    { method: "GET", path: "/api/email-callbacks/:emailCallbackId/endpoints", handler: endpointsRoute.GET },
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
  await twoSink?.close();
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

/** An .eml file whose text is Latin-1 in 8 bits (not UTF-8), with a Message-ID of its own. */
function writeLatin1Message(name: string, subject: string) {
  const file = path.join(scratch, name);
  const head = ["From: Erin <erin@example.org>", `To: ${twoAddress}`, `Subject: ${subject}`, `Message-ID: <${name}@example.org>`];
  const type = ["Content-Type: text/plain; charset=iso-8859-1", "Content-Transfer-Encoding: 8bit", "", ""];
  fs.writeFileSync(
    file,
    Buffer.concat([Buffer.from([...head, ...type].join("\r\n")), Buffer.from("D\xe9j\xe0 vu.\r\n", "latin1")]),
  );
  return { file, bytes: fs.readFileSync(file) };
}

describe("hookmail listen --endpoint", () => {
  it("forwards a raw Ed25519 endpoint's requests: the exact message bytes, its headers, a v1a signature that verifies", async () => {
    const listen = start(["listen", "--address", twoAddress, "--endpoint", rawEndpoint.id, "--forward-to", local.url("/raw")]);
    await expect
      .poll(listen.stderr, { timeout: 15_000 })
      .toContain(`Ready: listening to ${twoAddress}, endpoint ${rawEndpoint.id}`);
    local.reset();
    const { file, bytes } = writeLatin1Message("raw-one", "Raw to the local server");
    expect((await runOnce(["send", file, "--address", twoAddress])).code).toBe(0);

    await local.waitForRequests(1);
    const forwarded = local.requests[0]!;
    expect(forwarded.body.equals(bytes)).toBe(true);
    expect(forwarded.headers).toMatchObject({
      "content-type": "message/rfc822",
      "x-hookmail-recipient": twoAddress,
      "x-hookmail-processing-id": forwarded.headers["webhook-id"],
      "x-team": "mail",
    });
    const { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature } = headerValues(forwarded.headers);
    expect(signature).toMatch(/^v1a,/);
    const key = { scheme: "ed25519" as const, publicKey: rawEndpoint.signing.publicKey };
    expect(verifyWebhookSignature({ id, timestamp, body: forwarded.body, signature, key })).toBe(true);
    await expect.poll(listen.stdout).toMatch(/ {2}erin@example\.org {2}"Raw to the local server" {2}-> 200\n/);
  });

  it("without --endpoint, still forwards the first endpoint's JSON body signed with the address's secret", async () => {
    const listen = start(["listen", "--address", twoAddress, "--forward-to", local.url("/json")]);
    await expect.poll(listen.stderr, { timeout: 15_000 }).toContain(`Ready: listening to ${twoAddress} (`);
    local.reset();
    const { file } = writeLatin1Message("json-one", "JSON to the local server");
    expect((await runOnce(["send", file, "--address", twoAddress])).code).toBe(0);
    await local.waitForRequests(1);
    const forwarded = local.requests[0]!;
    expect(forwarded.headers["content-type"]).toBe("application/json");
    const payload = new Webhook(SECRET, { format: "raw" }).verify(
      forwarded.body.toString("utf8"),
      headerValues(forwarded.headers),
    );
    expect(payload).toMatchObject({ type: "email.received", data: { subject: "JSON to the local server" } });
  });

  it("an unknown endpoint id ends with one line naming it and exit code 1", async () => {
    const result = await runOnce(["listen", "--address", twoAddress, "--endpoint", "ept_nope", "--forward-to", local.url("/x")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^hookmail: unknown endpoint "ept_nope": cli-two@hookmail\.test has no endpoint of that id[^\n]*\n$/,
    );
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
