// Page experience: Largest Contentful Paint and Total Blocking Time of the address list, an inbox and
// a mail's page, signed in, on a slow phone's CPU and network; goal LCP ≤ 1.5 s and TBT ≤ 200 ms,
// median of BENCH_PAGE_LOADS (default 5) loads each. Their first-load JS against its budget is
// bench/dashboard-weight.ts's figure.
// The app and its user: bench/dashboard-app.ts (the production build, its embedded PostgreSQL server,
// a user with three addresses and twelve mails in the first). Each load: a fresh Chromium context
// (empty cache, the session cookie, 1280×720), the cache also disabled through the DevTools protocol,
// the CPU slowed 4× (`Emulation.setCPUThrottlingRate`) and the network shaped as DevTools' "Fast 3G"
// preset (`Network.emulateNetworkConditions`: FAST_3G below). One unthrottled load of each page
// first, not counted, so the server has loaded the page's code once (as it has after its first visitor).
// Read in the page, from observers registered before any of its scripts runs:
// - LCP: the last `largest-contentful-paint` entry (buffered) once the page shows its content and
//   the main thread is quiet, before any input (Chromium stops reporting at the first input).
// - TBT: Lighthouse's definition (page-metrics.ts: totalBlockingTime): over the main thread's tasks
//   between First Contentful Paint and Time to Interactive, the sum of what each lasts beyond 50 ms.
//   Lighthouse reads the tasks from a trace and ends at TTI, the start of the first 5 s window after
//   FCP with no long task and at most two requests in flight. Here the tasks are the Long Tasks API's
//   (`longtask` entries: tasks over 50 ms, the same tasks a trace shows as top-level) and the window
//   ends at the end of the last long task before 5 s without one (page-metrics.ts: endOfBusyTime),
//   the network not considered: a page's live-events stream stays open for as long as it is shown.
//   Lighthouse's default (simulated) throttling computes its figures from an unthrottled load; this
//   one throttles the load itself, as Lighthouse's "devtools" throttling does.
// Goal figures are for a user's phone; the 2-core machine the benchmarks run on, shared with the
// server, slows the throttled CPU further when loaded: say so beside the figures.
//   BENCH_PAGE_LOADS: loads per page (default 5). BENCH_PAGE_TRACE_DIR: also write a Chromium trace
//   of the first measured load of each page there (for DevTools' Performance panel; tracing slows the
//   page a little, so those loads' figures are not counted).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "@playwright/test";
import {
  type DashboardPage,
  ensureBuild,
  experiencePages,
  launchChromium,
  log,
  measureWithServer,
  PAGE_TIMEOUT_MS,
  type RunningServer,
  type SeededAccount,
  seedAccount,
} from "./dashboard-app";
import { endOfBusyTime, median, type Task, totalBlockingTime } from "./page-metrics";

const LCP_GOAL_MS = 1500;
const TBT_GOAL_MS = 200;
const LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 5);
const TRACE_DIR = process.env.BENCH_PAGE_TRACE_DIR;
const CPU_SLOWDOWN = 4;
/**
 * DevTools' "Fast 3G" preset (front_end/core/sdk/NetworkManager.ts): 1.6 Mbit/s down and 750 kbit/s
 * up, each × 0.9, and 150 ms round trips × 3.75 (DevTools' factors for its request-level throttling,
 * which Lighthouse's mobile throttling uses too). Bytes per second and milliseconds.
 */
const FAST_3G = {
  latency: 150 * 3.75, // 562.5 ms added to every request
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9, // 180,000 B/s
  uploadThroughput: ((750 * 1000) / 8) * 0.9, // 84,375 B/s
};
/** Lighthouse's Time to Interactive waits for this long without a long task. */
const QUIET_MS = 5_000;
/** A page still busy after this long is measured as it is (its TBT then counts up to here). */
const MAX_SETTLE_MS = 45_000;

/** Registered before the page's own scripts run: its long tasks, LCP candidates and FCP. */
const OBSERVERS = `(() => {
  const record = { longTasks: [], lcp: [] };
  window.__pageExperience = record;
  const describe = (element) => {
    if (!element) return "(removed)";
    const text = (element.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40);
    return element.tagName.toLowerCase() + (text ? ' "' + text + '"' : "");
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.longTasks.push({ startTime: entry.startTime, duration: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      record.lcp.push({ startTime: entry.startTime, size: entry.size, element: describe(entry.element) });
  }).observe({ type: "largest-contentful-paint", buffered: true });
})();`;

type PageRecord = {
  longTasks: Task[];
  lcp: { startTime: number; size: number; element: string }[];
  fcp: number | null;
  now: number;
};

type LoadFigures = { fcp: number; lcp: number; lcpElement: string; tbt: number; longTasks: number; busyUntil: number };

const readRecord = (page: import("@playwright/test").Page) =>
  page.evaluate(() => {
    const record = (window as unknown as { __pageExperience: Omit<PageRecord, "fcp" | "now"> }).__pageExperience;
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
    return { longTasks: [...record.longTasks], lcp: [...record.lcp], fcp, now: performance.now() } as PageRecord;
  });

/** One unthrottled load of the page until it shows its content: the server has run its code once. */
async function warmUp(browser: Browser, serverUrl: string, account: SeededAccount, target: DashboardPage) {
  const context = await browser.newContext({ locale: "en-US", storageState: account.storageState });
  try {
    const page = await context.newPage();
    await page.goto(`${serverUrl}${target.path}`, { waitUntil: "load", timeout: PAGE_TIMEOUT_MS });
    await target.isRendered(page);
  } finally {
    await context.close();
  }
}

/** One cold, throttled load of the page, signed in. */
async function loadOnce(
  browser: Browser,
  serverUrl: string,
  account: SeededAccount,
  target: DashboardPage,
  { tracePath }: { tracePath?: string } = {},
): Promise<LoadFigures> {
  const context = await browser.newContext({ locale: "en-US", storageState: account.storageState });
  try {
    await context.addInitScript(OBSERVERS);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, ...FAST_3G, connectionType: "cellular3g" });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    if (tracePath) await browser.startTracing(page, { path: tracePath, screenshots: true });
    await page.goto(`${serverUrl}${target.path}`, { waitUntil: "load", timeout: PAGE_TIMEOUT_MS });
    await target.isRendered(page);
    if (new URL(page.url()).pathname !== target.landsOn)
      throw new Error(`Expected ${target.landsOn}, ended on ${page.url()} (not signed in?)`);
    let record = await readRecord(page);
    const renderedAt = record.now;
    while (record.now - renderedAt < MAX_SETTLE_MS) {
      const lastTaskEnd = Math.max(renderedAt, ...record.longTasks.map((task) => task.startTime + task.duration));
      if (record.now - lastTaskEnd >= QUIET_MS) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
      record = await readRecord(page);
    }
    if (tracePath) await browser.stopTracing();
    if (record.fcp === null) throw new Error(`${target.label}: no First Contentful Paint`);
    const last = record.lcp.at(-1);
    if (!last) throw new Error(`${target.label}: no Largest Contentful Paint entry`);
    const busyUntil = endOfBusyTime(record.longTasks, record.fcp, QUIET_MS);
    return {
      fcp: record.fcp,
      lcp: last.startTime,
      lcpElement: last.element,
      tbt: totalBlockingTime(record.longTasks, { from: record.fcp, to: busyUntil }),
      longTasks: record.longTasks.filter((task) => task.startTime + task.duration > record.fcp!).length,
      busyUntil,
    };
  } finally {
    await context.close();
  }
}

type PageFigures = { target: DashboardPage; loads: LoadFigures[] };

async function measureAll(server: RunningServer): Promise<PageFigures[]> {
  const browser = await launchChromium();
  try {
    const account = await seedAccount(browser, server);
    const figures: PageFigures[] = [];
    for (const target of experiencePages(account)) {
      await warmUp(browser, server.url, account, target);
      if (TRACE_DIR) {
        fs.mkdirSync(TRACE_DIR, { recursive: true });
        const name = target.label.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "");
        const tracePath = path.join(TRACE_DIR, `${name}.json`);
        await loadOnce(browser, server.url, account, target, { tracePath });
        log(`Trace of ${target.label}: ${tracePath}`);
      }
      const loads: LoadFigures[] = [];
      for (let index = 0; index < LOADS; index++) loads.push(await loadOnce(browser, server.url, account, target));
      figures.push({ target, loads });
    }
    return figures;
  } finally {
    await browser.close();
  }
}

const ms = (value: number) => `${Math.round(value)} ms`.padStart(8);
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

async function main() {
  console.log(
    `Page experience: LCP and TBT, signed in, cold cache, CPU ${CPU_SLOWDOWN}× slower, DevTools' Fast 3G ` +
      `(${FAST_3G.latency} ms, ${FAST_3G.downloadThroughput / 1000} kB/s down, ${FAST_3G.uploadThroughput / 1000} kB/s up); ` +
      `median of ${LOADS} loads`,
  );
  await ensureBuild();
  log(`Load average before: ${loadAverage()} (${os.cpus().length} cores)`);
  const figures = await measureWithServer(measureAll);
  log(`Load average after: ${loadAverage()}`);

  for (const { target, loads } of figures) {
    console.log(`\n  ${target.label}`);
    for (const [index, load] of loads.entries()) {
      log(
        `  load ${index + 1}: FCP ${ms(load.fcp)}  LCP ${ms(load.lcp)} (${load.lcpElement})  TBT ${ms(load.tbt)}` +
          ` (${load.longTasks} long tasks after FCP, busy until ${Math.round(load.busyUntil)} ms)`,
      );
    }
  }

  console.log(`\n  Median of ${LOADS} loads:`);
  for (const { target, loads } of figures) {
    const lcp = median(loads.map((load) => load.lcp));
    const tbt = median(loads.map((load) => load.tbt));
    const fcp = median(loads.map((load) => load.fcp));
    log(
      `${target.label.padEnd(36)} FCP ${ms(fcp)} | LCP ${ms(lcp)}, goal ≤ ${LCP_GOAL_MS} ms: ${lcp <= LCP_GOAL_MS ? "met" : "NOT met"}` +
        ` | TBT ${ms(tbt)}, goal ≤ ${TBT_GOAL_MS} ms: ${tbt <= TBT_GOAL_MS ? "met" : "NOT met"}`,
    );
  }
}

await main();
