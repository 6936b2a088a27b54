// Dashboard weight: the first-load JS of the signed-in dashboard routes, gzip; goal ≤ 180 kB each.
// Routes: / (which the server sends on to /email-callbacks), /email-callbacks (one address listed)
// and that address's inbox (one mail in it).
// Measured in the browser: a production server of this checkout's build (built first when `.next`
// is missing or older than the sources, as `npm start` does) on ephemeral ports and a throwaway
// DATA_DIR; a user signed up through the auth API with one email callback, which gets one mail over
// SMTP, so the list shows a card and the inbox a row. Chromium opens each route in a fresh context
// (empty cache, the same session cookie). Counted: every script file the browser requests until
// the page shows its content and the network is idle, each gzipped here with zlib level 9 (the
// server's own compression is not used). Printed beside it: the files the build manifests list for
// the route (Next's own "first load JS"), as a cross-check.
// The database and the analytics and billing settings of the environment are not used: the embedded
// PostgreSQL server in a throwaway DATA_DIR, analytics and billing off: the default instance. (With analytics on, the
// browser also fetches posthog-js after hydration; that is not part of this figure.)
//   BENCH_CHROMIUM_PATH (default /usr/bin/chromium, else CHROMIUM_PATH).

import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { type Browser, type BrowserContext, chromium, type Page } from "@playwright/test";
import { createTransport } from "nodemailer";
import { buildApp, isBuildCurrent } from "@/modules/server/build";
import { createLogger, loggerOptionsFromEnvironment } from "@/modules/shared/logging/logger";
import { findFreePort } from "@/modules/shared/net/free-port";
import { benchMail } from "./common";
import { BENCH_DOMAIN } from "./settings";

const GOAL_KB = 180;
const GZIP_LEVEL = 9;
const SERVER_START_TIMEOUT_MS = 120_000;
const PAGE_TIMEOUT_MS = 60_000;
/** No new script for this long counts as settled when a stream keeps the network busy. */
const QUIET_MS = 2_000;
const USERNAME = "weight-bench";
const ADDRESS = `${USERNAME}@${BENCH_DOMAIN}`;
const MAIL_ID = "weight-1";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
];

const projectDir = path.resolve(import.meta.dirname, "..");
const log = (line: string) => console.log(`  ${line}`);

type ScriptFile = { name: string; bytes: number; gzipBytes: number };

/**
 * One measured route: where the browser goes, where it must end, what shows once it has rendered,
 * and the app-router segments whose entry chunks the build manifests list for it.
 */
type Route = {
  label: string;
  path: string;
  landsOn: string;
  isRendered: (page: Page) => Promise<void>;
  manifest: { pageKey: string; manifestDir: string; segments: string[] };
};

const kB = (bytes: number) => bytes / 1000;
const formatKb = (bytes: number) => `${kB(bytes).toFixed(1)} kB`;
const gzipSize = (body: Buffer) => zlib.gzipSync(body, { level: GZIP_LEVEL }).length;

const ROOT_SEGMENTS = ["[project]/app/layout", "[project]/app/(app)/layout"];

function buildRoutes(emailCallbackId: string): Route[] {
  const showsAddress = (page: Page) => page.getByRole("link", { name: ADDRESS }).first().waitFor({ timeout: PAGE_TIMEOUT_MS });
  const listManifest = {
    pageKey: "/(app)/email-callbacks/page",
    manifestDir: "(app)/email-callbacks",
    segments: [...ROOT_SEGMENTS, "[project]/app/(app)/email-callbacks/page"],
  };
  const inboxPath = `/email-callbacks/${emailCallbackId}/inbox`;
  return [
    // "/" answers a server redirect to /email-callbacks: the browser loads that page's scripts.
    { label: "/", path: "/", landsOn: "/email-callbacks", isRendered: showsAddress, manifest: listManifest },
    {
      label: "/email-callbacks",
      path: "/email-callbacks",
      landsOn: "/email-callbacks",
      isRendered: showsAddress,
      manifest: listManifest,
    },
    {
      label: "/email-callbacks/{id}/inbox",
      path: inboxPath,
      landsOn: inboxPath,
      isRendered: (page) => page.getByText(`Bench message ${MAIL_ID}`).first().waitFor({ timeout: PAGE_TIMEOUT_MS }),
      manifest: {
        pageKey: "/(app)/email-callbacks/[emailCallbackId]/inbox/page",
        manifestDir: "(app)/email-callbacks/[emailCallbackId]/inbox",
        segments: [
          ...ROOT_SEGMENTS,
          "[project]/app/(app)/email-callbacks/[emailCallbackId]/layout",
          "[project]/app/(app)/email-callbacks/[emailCallbackId]/inbox/page",
        ],
      },
    },
  ];
}

type RunningServer = { url: string; smtpPort: number; output: () => string; stop: () => Promise<void> };

/** `node --import tsx server.ts` as `npm start` runs it, on its own ports and database. */
async function startServer(): Promise<RunningServer> {
  const [port, smtpPort] = [await findFreePort(), await findFreePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-weight-"));
  const url = `http://localhost:${port}`;
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: projectDir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      BASE_URL: url,
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(smtpPort),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      HOOKMAIL_ROLES: "",
      EMAIL_DOMAINS: BENCH_DOMAIN,
      MAIL_AUTH_CHECKS: "false",
      AUTH_EMAIL_VERIFICATION_REQUIRED: "false",
      AUTH_RATE_LIMIT_ENABLED: "false",
      // Analytics and billing off: the default instance. posthog-js is loaded only when analytics are on.
      NEXT_PUBLIC_POSTHOG_KEY: "",
      NEXT_PUBLIC_POSTHOG_HOST: "",
      STRIPE_SECRET_KEY: "",
      STRIPE_PRO_PRICE_ID: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const isHealthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (isHealthy) return { url, smtpPort, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`The server did not start:\n${output}`);
}

/** A user with one address, which has received one mail: the session's cookies and the address's id. */
async function seedAccount(browser: Browser, server: RunningServer) {
  const context = await browser.newContext({ locale: "en-US" });
  try {
    const headers = { Origin: server.url };
    const signUp = await context.request.post(`${server.url}/api/auth/sign-up/email`, {
      headers,
      data: { email: "weight@example.com", password: "correct-horse-battery", name: "Weight Bench", callbackURL: "/" },
    });
    if (!signUp.ok()) throw new Error(`Sign-up failed: ${signUp.status()} ${await signUp.text()}`);
    const created = await context.request.post(`${server.url}/api/email-callbacks`, {
      headers,
      data: { domain: BENCH_DOMAIN, username: USERNAME, webhookUrl: "https://hooks.example.com/incoming", allowedOrigins: [] },
    });
    if (created.status() !== 201)
      throw new Error(`Creating an email callback failed: ${created.status()} ${await created.text()}`);
    const { id } = ((await created.json()) as { emailCallback: { id: string } }).emailCallback;
    const smtp = createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true });
    await smtp.sendMail(benchMail(MAIL_ID, ADDRESS));
    smtp.close();
    return { storageState: await context.storageState(), emailCallbackId: id };
  } finally {
    await context.close();
  }
}

/** The script files Chromium loads for one route on first load, signed in, with an empty cache. */
async function measureRoute(
  browser: Browser,
  serverUrl: string,
  storageState: Awaited<ReturnType<BrowserContext["storageState"]>>,
  route: Route,
): Promise<{ scripts: ScriptFile[]; inlineScriptGzipBytes: number }> {
  const context = await browser.newContext({ locale: "en-US", storageState });
  try {
    const page = await context.newPage();
    const pending: Promise<ScriptFile>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      const name = new URL(response.url()).pathname;
      pending.push(response.body().then((body) => ({ name, bytes: body.length, gzipBytes: gzipSize(body) })));
    });
    const documentResponse = await page.goto(`${serverUrl}${route.path}`, { waitUntil: "load", timeout: PAGE_TIMEOUT_MS });
    await route.isRendered(page);
    await waitForScriptsToSettle(page, () => pending.length);
    if (new URL(page.url()).pathname !== route.landsOn)
      throw new Error(`Expected ${route.landsOn}, ended on ${page.url()} (not signed in?)`);

    const html = (await documentResponse?.text()) ?? "";
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? "");
    const inlineScriptGzipBytes = gzipSize(Buffer.from(inlineScripts.join(""), "utf8"));
    const scripts = await Promise.all(pending);
    return { scripts: dedupeByName(scripts), inlineScriptGzipBytes };
  } finally {
    await context.close();
  }
}

/**
 * Until the network is idle, or (a page may hold a stream open, which keeps it from ever being idle)
 * until no script has been requested for QUIET_MS.
 */
async function waitForScriptsToSettle(page: Page, countScripts: () => number) {
  const isIdle = page.waitForLoadState("networkidle", { timeout: PAGE_TIMEOUT_MS }).then(
    () => true,
    () => false,
  );
  let count = countScripts();
  let quietSince = Date.now();
  const deadline = Date.now() + PAGE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const settled = await Promise.race([isIdle, new Promise<false>((resolve) => setTimeout(() => resolve(false), 250))]);
    if (settled) return;
    if (countScripts() !== count) {
      count = countScripts();
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= QUIET_MS) return;
  }
}

function dedupeByName(files: ScriptFile[]): ScriptFile[] {
  return [...new Map(files.map((file) => [file.name, file])).values()];
}

/**
 * What the build manifests list for the route: the root main files (framework and runtime) and
 * the entry chunks of every segment of the route (root layout, dashboard layout, page). Next's
 * manifests are internal; null when their shape is not the one expected.
 */
function readManifestFiles({ pageKey, manifestDir, segments }: Route["manifest"]): string[] | null {
  try {
    const nextDir = path.join(projectDir, ".next");
    const buildManifest = JSON.parse(fs.readFileSync(path.join(nextDir, "build-manifest.json"), "utf8")) as {
      rootMainFiles: string[];
    };
    const manifestPath = path.join(nextDir, "server", "app", manifestDir, "page_client-reference-manifest.js");
    const globalWithManifest = globalThis as typeof globalThis & {
      __RSC_MANIFEST?: Record<string, { entryJSFiles: Record<string, string[]> }>;
    };
    createRequire(import.meta.url)(manifestPath);
    const entryFiles = globalWithManifest.__RSC_MANIFEST?.[pageKey]?.entryJSFiles;
    if (!entryFiles) return null;
    return [...new Set([...buildManifest.rootMainFiles, ...segments.flatMap((segment) => entryFiles[segment] ?? [])])].map(
      (file) => `/_next/${file}`,
    );
  } catch {
    return null;
  }
}

function printScripts(scripts: ScriptFile[]) {
  const sorted = [...scripts].sort((a, b) => b.gzipBytes - a.gzipBytes);
  for (const script of sorted) {
    console.log(
      `    ${script.name.padEnd(48)} ${formatKb(script.bytes).padStart(10)} raw ${formatKb(script.gzipBytes).padStart(9)} gzip`,
    );
  }
}

function printCrossCheck(route: Route, scripts: ScriptFile[]) {
  const manifestFiles = readManifestFiles(route.manifest);
  if (!manifestFiles) {
    log("  Cross-check: the build manifests could not be read (format changed?)");
    return;
  }
  const requested = new Set(scripts.map((script) => script.name));
  const manifestGzip = manifestFiles.reduce(
    (sum, file) => sum + gzipSize(fs.readFileSync(path.join(projectDir, ".next", file.replace(/^\/_next\//, "")))),
    0,
  );
  const notRequested = manifestFiles.filter((file) => !requested.has(file));
  const notInManifest = scripts.filter((script) => !manifestFiles.includes(script.name)).map((script) => script.name);
  log(
    `  Cross-check, build manifests (root main files + the route's entry chunks): ${manifestFiles.length} files, ${formatKb(manifestGzip)} gzip`,
  );
  if (notRequested.length > 0) log(`    listed but not requested: ${notRequested.join(", ")}`);
  if (notInManifest.length > 0) log(`    requested but not listed (loaded on demand): ${notInManifest.join(", ")}`);
}

type RouteFigure = { route: Route; scripts: ScriptFile[]; totalGzip: number; totalBytes: number; inlineScriptGzipBytes: number };

async function measureAll(server: RunningServer): Promise<RouteFigure[]> {
  const browser = await chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM_PATH ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  try {
    const { storageState, emailCallbackId } = await seedAccount(browser, server);
    const figures: RouteFigure[] = [];
    for (const route of buildRoutes(emailCallbackId)) {
      const { scripts, inlineScriptGzipBytes } = await measureRoute(browser, server.url, storageState, route);
      figures.push({
        route,
        scripts,
        inlineScriptGzipBytes,
        totalBytes: scripts.reduce((sum, script) => sum + script.bytes, 0),
        totalGzip: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
      });
    }
    return figures;
  } finally {
    await browser.close();
  }
}

async function main() {
  console.log(`Dashboard weight: first-load JS of the signed-in dashboard, gzip (zlib level ${GZIP_LEVEL}; kB = 1000 bytes)`);
  if (isBuildCurrent(projectDir)) log("Build: .next is current");
  else await buildApp(projectDir, createLogger(loggerOptionsFromEnvironment(process.env)));

  const server = await startServer();
  let figures: RouteFigure[];
  try {
    figures = await measureAll(server);
  } catch (error) {
    console.error(server.output());
    throw error;
  } finally {
    await server.stop();
  }

  for (const { route, scripts, totalGzip, totalBytes, inlineScriptGzipBytes } of figures) {
    console.log(`\n  ${route.label}: script files requested by Chromium (signed in, empty cache): ${scripts.length}`);
    printScripts(scripts);
    log(`  Total: ${formatKb(totalGzip)} gzip (${formatKb(totalBytes)} raw)`);
    log(`  Not counted: inline <script> of the HTML (RSC payload, messages), ${formatKb(inlineScriptGzipBytes)} gzip`);
    printCrossCheck(route, scripts);
  }

  console.log("\n  First-load JS, gzip:");
  for (const { route, scripts, totalGzip } of figures) {
    const isMet = kB(totalGzip) <= GOAL_KB;
    log(
      `${route.label.padEnd(30)} ${formatKb(totalGzip).padStart(9)} (${scripts.length} files) | goal ≤ ${GOAL_KB} kB gzip: ${isMet ? "met" : "NOT met"}`,
    );
  }
}

await main();
