// Dashboard weight: the first-load JS of /email-callbacks, gzip; goal ≤ 180 kB.
// Measured in the browser: a production server of this checkout's build (built first when `.next`
// is missing or older than the sources, as `npm start` does) on ephemeral ports and a throwaway
// DATA_DIR; a user signed up through the auth API with one email callback, so the page renders its
// list with a card; Chromium opens /email-callbacks with an empty cache. Counted: every script
// file the browser requests until the page shows the callback and the network is idle, each
// gzipped here with zlib level 9 (the server's own compression is not used). Printed beside it:
// the files the build manifests list for the route (Next's own "first load JS"), as a cross-check.
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
import { chromium } from "@playwright/test";
import { buildApp, isBuildCurrent } from "@/modules/server/build";
import { getLogger } from "@/modules/shared/logging/logger";
import { findFreePort } from "@/modules/shared/net/free-port";

const ROUTE = "/email-callbacks";
const GOAL_KB = 180;
const GZIP_LEVEL = 9;
const SERVER_START_TIMEOUT_MS = 120_000;
const PAGE_TIMEOUT_MS = 60_000;
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

const kB = (bytes: number) => bytes / 1000;
const formatKb = (bytes: number) => `${kB(bytes).toFixed(1)} kB`;
const gzipSize = (body: Buffer) => zlib.gzipSync(body, { level: GZIP_LEVEL }).length;

type RunningServer = { url: string; output: () => string; stop: () => Promise<void> };

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
      EMAIL_DOMAINS: "hookmail.test",
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
    if (isHealthy) return { url, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`The server did not start:\n${output}`);
}

/** The script files Chromium loads for the route on first load, signed in, with an empty cache. */
async function measureInBrowser(serverUrl: string): Promise<{ scripts: ScriptFile[]; inlineScriptGzipBytes: number }> {
  const browser = await chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM_PATH ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext({ locale: "en-US" });
    const headers = { Origin: serverUrl };
    const signUp = await context.request.post(`${serverUrl}/api/auth/sign-up/email`, {
      headers,
      data: { email: "weight@example.com", password: "correct-horse-battery", name: "Weight Bench", callbackURL: "/" },
    });
    if (!signUp.ok()) throw new Error(`Sign-up failed: ${signUp.status()} ${await signUp.text()}`);
    const created = await context.request.post(`${serverUrl}/api/email-callbacks`, {
      headers,
      data: {
        domain: "hookmail.test",
        username: "weight-bench",
        webhookUrl: "https://hooks.example.com/incoming",
        allowedOrigins: [],
      },
    });
    if (created.status() !== 201)
      throw new Error(`Creating an email callback failed: ${created.status()} ${await created.text()}`);

    const page = await context.newPage();
    const pending: Promise<ScriptFile>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      const name = new URL(response.url()).pathname;
      pending.push(response.body().then((body) => ({ name, bytes: body.length, gzipBytes: gzipSize(body) })));
    });
    const documentResponse = await page.goto(`${serverUrl}${ROUTE}`, { waitUntil: "load", timeout: PAGE_TIMEOUT_MS });
    await page.getByRole("link", { name: "weight-bench@hookmail.test" }).waitFor({ timeout: PAGE_TIMEOUT_MS });
    await page.waitForLoadState("networkidle", { timeout: PAGE_TIMEOUT_MS });
    if (new URL(page.url()).pathname !== ROUTE) throw new Error(`Expected ${ROUTE}, ended on ${page.url()} (not signed in?)`);

    const html = (await documentResponse?.text()) ?? "";
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? "");
    const inlineScriptGzipBytes = gzipSize(Buffer.from(inlineScripts.join(""), "utf8"));
    const scripts = await Promise.all(pending);
    return { scripts: dedupeByName(scripts), inlineScriptGzipBytes };
  } finally {
    await browser.close();
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
function readManifestFiles(): string[] | null {
  try {
    const nextDir = path.join(projectDir, ".next");
    const buildManifest = JSON.parse(fs.readFileSync(path.join(nextDir, "build-manifest.json"), "utf8")) as {
      rootMainFiles: string[];
    };
    const pageKey = `/(app)${ROUTE}/page`;
    const manifestPath = path.join(nextDir, "server", "app", "(app)", ROUTE.slice(1), "page_client-reference-manifest.js");
    const globalWithManifest = globalThis as typeof globalThis & {
      __RSC_MANIFEST?: Record<string, { entryJSFiles: Record<string, string[]> }>;
    };
    createRequire(import.meta.url)(manifestPath);
    const entryFiles = globalWithManifest.__RSC_MANIFEST?.[pageKey]?.entryJSFiles;
    if (!entryFiles) return null;
    const segments = ["[project]/app/layout", "[project]/app/(app)/layout", `[project]/app/(app)${ROUTE}/page`];
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
      `  ${script.name.padEnd(48)} ${formatKb(script.bytes).padStart(10)} raw ${formatKb(script.gzipBytes).padStart(9)} gzip`,
    );
  }
}

async function main() {
  console.log(`Dashboard weight: first-load JS of ${ROUTE}, gzip (zlib level ${GZIP_LEVEL}; kB = 1000 bytes)`);
  if (isBuildCurrent(projectDir)) log("Build: .next is current");
  else buildApp(projectDir, getLogger());

  const server = await startServer();
  let measured: Awaited<ReturnType<typeof measureInBrowser>>;
  try {
    measured = await measureInBrowser(server.url);
  } catch (error) {
    console.error(server.output());
    throw error;
  } finally {
    await server.stop();
  }

  const { scripts, inlineScriptGzipBytes } = measured;
  const totalBytes = scripts.reduce((sum, script) => sum + script.bytes, 0);
  const totalGzip = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
  console.log(`\n  Script files requested by Chromium (signed in, empty cache, one email callback listed): ${scripts.length}`);
  printScripts(scripts);
  const isMet = kB(totalGzip) <= GOAL_KB;
  console.log(
    `\n  Total first-load JS: ${formatKb(totalGzip)} gzip (${formatKb(totalBytes)} raw) | goal ≤ ${GOAL_KB} kB gzip: ${isMet ? "met" : "NOT met"}`,
  );
  console.log(`  Not counted: inline <script> of the HTML (RSC payload, messages), ${formatKb(inlineScriptGzipBytes)} gzip`);

  const manifestFiles = readManifestFiles();
  if (!manifestFiles) {
    console.log("  Cross-check: the build manifests could not be read (format changed?)");
    return;
  }
  const requested = new Set(scripts.map((script) => script.name));
  const manifestGzip = manifestFiles.reduce(
    (sum, file) => sum + gzipSize(fs.readFileSync(path.join(projectDir, ".next", file.replace(/^\/_next\//, "")))),
    0,
  );
  const notRequested = manifestFiles.filter((file) => !requested.has(file));
  const notInManifest = scripts.filter((script) => !manifestFiles.includes(script.name)).map((script) => script.name);
  console.log(
    `  Cross-check, build manifests (root main files + the route's entry chunks): ${manifestFiles.length} files, ${formatKb(manifestGzip)} gzip`,
  );
  if (notRequested.length > 0) console.log(`    listed but not requested: ${notRequested.join(", ")}`);
  if (notInManifest.length > 0) console.log(`    requested but not listed (loaded on demand): ${notInManifest.join(", ")}`);
}

await main();
