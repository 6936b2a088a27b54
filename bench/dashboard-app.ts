// What the dashboard benchmarks (dashboard-weight.ts, page-experience.ts) share: the production app
// they measure, a signed-in user with addresses and mail in it, Debian's Chromium, and the signed-in
// dashboard's pages.
// The app: `node --import tsx server.ts` as `npm start` runs it (built first when `.next` is missing
// or older than the sources), on ephemeral ports, with its embedded PostgreSQL server in a throwaway
// DATA_DIR; the database, analytics and billing settings of the environment are not used (analytics
// and billing off: the default instance; with analytics on, the browser also fetches posthog-js after
// hydration).
// The user: signed up through the auth API, with ADDRESS_COUNT addresses; the first receives
// MAIL_COUNT mails over SMTP, so the list shows cards, the inbox rows, and a mail has its own page.
//   BENCH_CHROMIUM_PATH (default /usr/bin/chromium, else CHROMIUM_PATH).

import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "@playwright/test";
import { createTransport } from "nodemailer";
import { buildApp, isBuildCurrent } from "@/modules/server/build";
import { createLogger, loggerOptionsFromEnvironment } from "@/modules/shared/logging/logger";
import { findFreePort } from "@/modules/shared/net/free-port";
import { benchMail } from "./common";
import { BENCH_DOMAIN } from "./settings";

const SERVER_START_TIMEOUT_MS = 120_000;
export const PAGE_TIMEOUT_MS = 60_000;
const USERNAME = "weight-bench";
export const ADDRESS = `${USERNAME}@${BENCH_DOMAIN}`;
const ADDRESS_COUNT = 3;
const MAIL_COUNT = 12;
/** The bench id of the mail whose page is measured (the first one sent). */
const MAIL_ID = (index: number) => `weight-${index + 1}`;
export const MESSAGE_SUBJECT = `Bench message ${MAIL_ID(0)}`;
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
];

export const projectDir = path.resolve(import.meta.dirname, "..");
export const log = (line: string) => console.log(`  ${line}`);

/** Builds the app unless `.next` is current, as `npm start` does. */
export async function ensureBuild() {
  if (isBuildCurrent(projectDir)) log("Build: .next is current");
  else await buildApp(projectDir, createLogger(loggerOptionsFromEnvironment(process.env)));
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM_PATH ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
}

export type RunningServer = { url: string; smtpPort: number; output: () => string; stop: () => Promise<void> };

/** `node --import tsx server.ts` as `npm start` runs it, on its own ports and database. */
/** Starts the app, runs `measure` against it, and stops it; the app's output is printed if `measure` fails. */
export async function measureWithServer<T>(measure: (server: RunningServer) => Promise<T>): Promise<T> {
  const server = await startServer();
  try {
    return await measure(server);
  } catch (error) {
    console.error(server.output());
    throw error;
  } finally {
    await server.stop();
  }
}

export async function startServer(): Promise<RunningServer> {
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

export type SeededAccount = {
  storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;
  emailCallbackId: string;
  processingId: string;
};

/** A user with ADDRESS_COUNT addresses, the first with MAIL_COUNT mails: the session's cookies and the ids. */
export async function seedAccount(browser: Browser, server: RunningServer): Promise<SeededAccount> {
  const context = await browser.newContext({ locale: "en-US" });
  try {
    const headers = { Origin: server.url };
    const signUp = await context.request.post(`${server.url}/api/auth/sign-up/email`, {
      headers,
      data: { email: "weight@example.com", password: "correct-horse-battery", name: "Weight Bench", callbackURL: "/" },
    });
    if (!signUp.ok()) throw new Error(`Sign-up failed: ${signUp.status()} ${await signUp.text()}`);
    const ids: string[] = [];
    for (let index = 0; index < ADDRESS_COUNT; index++) {
      const created = await context.request.post(`${server.url}/api/email-callbacks`, {
        headers,
        data: {
          domain: BENCH_DOMAIN,
          username: index === 0 ? USERNAME : `${USERNAME}-${index + 1}`,
          webhookUrl: "https://hooks.example.com/incoming",
          allowedOrigins: [],
        },
      });
      if (created.status() !== 201)
        throw new Error(`Creating an email callback failed: ${created.status()} ${await created.text()}`);
      ids.push(((await created.json()) as { emailCallback: { id: string } }).emailCallback.id);
    }
    const emailCallbackId = ids[0]!;
    const smtp = createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true });
    try {
      for (let index = 0; index < MAIL_COUNT; index++) await smtp.sendMail(benchMail(MAIL_ID(index), ADDRESS));
    } finally {
      smtp.close();
    }
    const processingId = await findProcessing(context, server.url, emailCallbackId, MESSAGE_SUBJECT);
    return { storageState: await context.storageState(), emailCallbackId, processingId };
  } finally {
    await context.close();
  }
}

/** The id of the inbox's mail with that subject, once it is recorded. */
async function findProcessing(context: BrowserContext, serverUrl: string, emailCallbackId: string, subject: string) {
  const deadline = Date.now() + PAGE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const response = await context.request.get(`${serverUrl}/api/email-callbacks/${emailCallbackId}/processings?pageSize=100`);
    if (!response.ok()) throw new Error(`Listing the inbox failed: ${response.status()} ${await response.text()}`);
    const { emailProcessings } = (await response.json()) as { emailProcessings: { id: string; subject: string | null }[] };
    const found = emailProcessings.find((processing) => processing.subject === subject);
    if (found) return found.id;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The mail "${subject}" did not reach the inbox`);
}

/**
 * One dashboard page: where the browser goes, where it must end, what shows once it has rendered its
 * content, and its page file under app/ (whose segments' entry chunks the build manifests list).
 */
export type DashboardPage = {
  label: string;
  path: string;
  landsOn: string;
  isRendered: (page: Page) => Promise<void>;
  pageFile: string;
  /** The page file that answers `path` with a redirect to `landsOn`, if one does. */
  redirectFile?: string;
};

const showsHeading = (page: Page) => page.locator("h1").first().waitFor({ timeout: PAGE_TIMEOUT_MS });
const showsAddress = (page: Page) => page.getByRole("link", { name: ADDRESS }).first().waitFor({ timeout: PAGE_TIMEOUT_MS });

/** The three pages whose LCP and TBT are measured: the address list, an inbox, a mail's page. */
export function experiencePages({ emailCallbackId, processingId }: SeededAccount): DashboardPage[] {
  const inboxPath = `/email-callbacks/${emailCallbackId}/inbox`;
  return [
    {
      label: "/email-callbacks",
      path: "/email-callbacks",
      landsOn: "/email-callbacks",
      isRendered: showsAddress,
      pageFile: "app/(app)/email-callbacks/page.tsx",
    },
    {
      label: "/email-callbacks/{id}/inbox",
      path: inboxPath,
      landsOn: inboxPath,
      isRendered: (page) => page.getByText(MESSAGE_SUBJECT).first().waitFor({ timeout: PAGE_TIMEOUT_MS }),
      pageFile: "app/(app)/email-callbacks/[emailCallbackId]/inbox/page.tsx",
    },
    {
      label: "/email-callbacks/{id}/inbox/{mail}",
      path: `${inboxPath}/${processingId}`,
      landsOn: `${inboxPath}/${processingId}`,
      isRendered: (page) => page.getByRole("heading", { name: MESSAGE_SUBJECT }).first().waitFor({ timeout: PAGE_TIMEOUT_MS }),
      pageFile: "app/(app)/email-callbacks/[emailCallbackId]/inbox/[processingId]/page.tsx",
    },
  ];
}

/**
 * Every page of the signed-in dashboard (app/(app)/**), the three above among them. `/` and
 * `/email-callbacks/{id}` answer a server redirect (to the list, to the inbox): the browser loads the
 * page they lead to.
 */
export function dashboardPages(account: SeededAccount): DashboardPage[] {
  const [list, inbox, message] = experiencePages(account);
  const address = `/email-callbacks/${account.emailCallbackId}`;
  const simple = (label: string, pagePath: string, pageFile: string): DashboardPage => ({
    label,
    path: pagePath,
    landsOn: pagePath,
    isRendered: showsHeading,
    pageFile,
  });
  return [
    { ...list!, label: "/ (redirected to /email-callbacks)", path: "/", redirectFile: "app/(app)/page.tsx" },
    list!,
    simple("/email-callbacks/create", "/email-callbacks/create", "app/(app)/email-callbacks/create/page.tsx"),
    {
      ...inbox!,
      label: "/email-callbacks/{id} (redirected to its inbox)",
      path: address,
      redirectFile: "app/(app)/email-callbacks/[emailCallbackId]/page.tsx",
    },
    inbox!,
    message!,
    simple(
      "/email-callbacks/{id}/settings",
      `${address}/settings`,
      "app/(app)/email-callbacks/[emailCallbackId]/settings/page.tsx",
    ),
    simple("/api-keys", "/api-keys", "app/(app)/api-keys/page.tsx"),
    simple("/api-keys/create", "/api-keys/create", "app/(app)/api-keys/create/page.tsx"),
    simple("/api-reference", "/api-reference", "app/(app)/api-reference/page.tsx"),
    simple("/webhooks", "/webhooks", "app/(app)/webhooks/page.tsx"),
    simple("/settings", "/settings", "app/(app)/settings/page.tsx"),
  ];
}
