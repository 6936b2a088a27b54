// Dashboard weight: the first-load JS of every page of the signed-in dashboard, gzip; goal ≤ 200 kB each.
// Pages: every page under app/(app) (bench/dashboard-app.ts: dashboardPages; a page file not listed
// there fails the run), `/` and an address's own URL among them (the server sends them on to the list
// and to the inbox).
// Measured in the browser: the production app of bench/dashboard-app.ts, signed in as its user (a few
// addresses, mail in the first). Chromium opens each page in a fresh context (empty cache, the same
// session cookie), unthrottled (bench/page-experience.ts measures what loading them feels like).
// Counted: every script file the browser requests until the page shows its content and the network
// is idle, each gzipped here with zlib level 9 (the server's own compression is not used). Printed
// beside it: the files the build manifests list for the page (Next's own "first load JS"), as a
// cross-check.

import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import zlib from "node:zlib";
import type { Browser, Page } from "@playwright/test";
import {
  type DashboardPage,
  dashboardPages,
  ensureBuild,
  launchChromium,
  log,
  measureWithServer,
  PAGE_TIMEOUT_MS,
  projectDir,
  type RunningServer,
  type SeededAccount,
  seedAccount,
} from "./dashboard-app";

const GOAL_KB = 200;
const GZIP_LEVEL = 9;
/** No new script for this long counts as settled when a stream keeps the network busy. */
const QUIET_MS = 2_000;

type ScriptFile = { name: string; bytes: number; gzipBytes: number };

const kB = (bytes: number) => bytes / 1000;
const formatKb = (bytes: number) => `${kB(bytes).toFixed(1)} kB`;
const gzipSize = (body: Buffer) => zlib.gzipSync(body, { level: GZIP_LEVEL }).length;

/** The script files Chromium loads for one page on first load, signed in, with an empty cache. */
async function measureRoute(
  browser: Browser,
  serverUrl: string,
  storageState: SeededAccount["storageState"],
  route: DashboardPage,
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
 * The app-router segments of a page file whose entry chunks the build manifests list: the root
 * layout, every layout.tsx on the way to the page, and the page ("[project]/app/(app)/layout", …).
 */
function pageSegments(pageFile: string): string[] {
  const directories = path.dirname(pageFile).split("/");
  const layouts = directories
    .map((_, index) => directories.slice(0, index + 1).join("/"))
    .filter((directory) => fs.existsSync(path.join(projectDir, directory, "layout.tsx")))
    .map((directory) => `[project]/${directory}/layout`);
  return [...layouts, `[project]/${pageFile.replace(/\.tsx$/, "")}`];
}

/**
 * What the build manifests list for the page: the root main files (framework and runtime) and the
 * entry chunks of every segment of the page (root layout, dashboard layout, page). Next's manifests
 * are internal; null when their shape is not the one expected.
 */
function readManifestFiles(pageFile: string): string[] | null {
  try {
    const nextDir = path.join(projectDir, ".next");
    const buildManifest = JSON.parse(fs.readFileSync(path.join(nextDir, "build-manifest.json"), "utf8")) as {
      rootMainFiles: string[];
    };
    const routeDir = path.dirname(pageFile).replace(/^app\//, "");
    const manifestPath = path.join(nextDir, "server", "app", routeDir, "page_client-reference-manifest.js");
    const globalWithManifest = globalThis as typeof globalThis & {
      __RSC_MANIFEST?: Record<string, { entryJSFiles: Record<string, string[]> }>;
    };
    createRequire(import.meta.url)(manifestPath);
    const entryFiles = globalWithManifest.__RSC_MANIFEST?.[`/${routeDir}/page`]?.entryJSFiles;
    if (!entryFiles) return null;
    const segments = pageSegments(pageFile);
    return [...new Set([...buildManifest.rootMainFiles, ...segments.flatMap((segment) => entryFiles[segment] ?? [])])].map(
      (file) => `/_next/${file}`,
    );
  } catch {
    return null;
  }
}

/** The page files under app/(app) that dashboardPages does not list. */
function unlistedPages(pages: DashboardPage[]): string[] {
  const listed = new Set(pages.flatMap((page) => [page.pageFile, page.redirectFile ?? page.pageFile]));
  const found = (fs.readdirSync(path.join(projectDir, "app", "(app)"), { recursive: true }) as string[])
    .filter((file) => path.basename(file) === "page.tsx")
    .map((file) => `app/(app)/${file.split(path.sep).join("/")}`);
  return found.filter((file) => !listed.has(file));
}

function printScripts(scripts: ScriptFile[]) {
  const sorted = [...scripts].sort((a, b) => b.gzipBytes - a.gzipBytes);
  for (const script of sorted) {
    console.log(
      `    ${script.name.padEnd(48)} ${formatKb(script.bytes).padStart(10)} raw ${formatKb(script.gzipBytes).padStart(9)} gzip`,
    );
  }
}

function printCrossCheck(route: DashboardPage, scripts: ScriptFile[]) {
  const manifestFiles = readManifestFiles(route.pageFile);
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

type RouteFigure = {
  route: DashboardPage;
  scripts: ScriptFile[];
  totalGzip: number;
  totalBytes: number;
  inlineScriptGzipBytes: number;
};

async function measureAll(server: RunningServer): Promise<RouteFigure[]> {
  const browser = await launchChromium();
  try {
    const account = await seedAccount(browser, server);
    const pages = dashboardPages(account);
    const unlisted = unlistedPages(pages);
    if (unlisted.length > 0) throw new Error(`Dashboard pages not measured (add them to dashboardPages): ${unlisted.join(", ")}`);
    const figures: RouteFigure[] = [];
    for (const route of pages) {
      const { scripts, inlineScriptGzipBytes } = await measureRoute(browser, server.url, account.storageState, route);
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
  await ensureBuild();
  const figures = await measureWithServer(measureAll);

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
      `${route.label.padEnd(48)} ${formatKb(totalGzip).padStart(9)} (${scripts.length} files) | goal ≤ ${GOAL_KB} kB gzip: ${isMet ? "met" : "NOT met"}`,
    );
  }
}

await main();
