// A mail sent to an address with two endpoints, on its message page (docs/webhooks.md:
// Destinations): each endpoint's delivery shows on its own, with its status, attempts and status
// code, and a Redeliver of one endpoint calls that endpoint alone; once an endpoint is deleted its
// delivery stays, named as removed, without a Redeliver. The page is saved with one
// delivery delivered and the other failed, at a desktop width and a phone's, in en and fr, to the
// test's output folder (test-results/) to be looked at; the phone's page never scrolls sideways.
import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { type SinkReply, startWebhookSink, type WebhookSink } from "../support/webhook-sink";
import { createEmailCallbackThroughApi } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER, E2E_SMTP_PORT } from "./support/servers";

const TEXTS = {
  en: {
    tab: "Deliveries",
    delivered: "Delivered",
    pending: "Pending",
    failed: "Failed",
    redeliver: "Redeliver",
    started: "Redelivery to Destination 2 started",
    nextAttempt: "next attempt",
    summary: (delivered: number) => `${delivered} of 2 destinations delivered`,
    attempts: (count: number) => (count === 1 ? "1 attempt" : `${count} attempts`),
    lastResponse: (code: number) => `last response: HTTP ${code}`,
    attemptsOf: (destination: string) => `Attempts to ${destination}`,
    removed: "Removed destination",
    removedHint: "This destination was deleted",
  },
  fr: {
    tab: "Livraisons",
    delivered: "Livrée",
    pending: "En attente",
    failed: "En échec",
    redeliver: "Renvoyer",
    started: "Nouvel envoi lancé : Destination 2",
    nextAttempt: "prochaine tentative",
    summary: (delivered: number) =>
      delivered < 2 ? `${delivered} destination sur 2 livrée` : `${delivered} destinations sur 2 livrées`,
    attempts: (count: number) => (count === 1 ? "1 tentative" : `${count} tentatives`),
    lastResponse: (code: number) => `dernière réponse : HTTP ${code}`,
    attemptsOf: (destination: string) => `Tentatives : ${destination}`,
    removed: "Destination supprimée",
    removedHint: "Cette destination a été supprimée",
  },
} as const;

let first: WebhookSink;
let second: WebhookSink;
/** What the second endpoint's receiver answers now. */
let secondReply: SinkReply;

test.beforeEach(async () => {
  first = await startWebhookSink();
  second = await startWebhookSink({ decide: () => secondReply });
});
test.afterEach(async () => {
  await first.close();
  await second.close();
});

async function sendMail(to: string, subject: string) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: "Bob <bob@example.org>", to, subject, text: `Body of ${subject}` });
  } finally {
    transport.close();
  }
}

const endpointsUrl = (emailCallbackId: string) => `${DEFAULT_SERVER.url}/api/email-callbacks/${emailCallbackId}/endpoints`;

/** The new endpoint's id. */
async function addEndpointThroughApi(page: Page, emailCallbackId: string, url: string): Promise<string> {
  const response = await page.request.post(endpointsUrl(emailCallbackId), {
    headers: { Origin: DEFAULT_SERVER.url },
    data: { url },
  });
  if (response.status() !== 201) throw new Error(`adding the endpoint failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { endpoint: { id: string } }).endpoint.id;
}

/** The whole page at both widths, times blanked (support/fixed-times.css) and toasts hidden. */
async function saveScreenshots(page: Page, name: string) {
  const fixedTimes = fs.readFileSync(path.join(test.info().project.testDir, "support/fixed-times.css"), "utf8");
  for (const { width, height, label } of [
    { width: 1280, height: 800, label: "desktop" },
    { width: 390, height: 844, label: "phone" },
  ]) {
    await page.setViewportSize({ width, height });
    await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: test.info().outputPath(`${name}-${label}.png`),
      fullPage: true,
      animations: "disabled",
      style: `${fixedTimes}\n[data-sonner-toaster] { display: none !important; }`,
    });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

for (const locale of ["en", "fr"] as const) {
  test(`in ${locale}, each endpoint's delivery shows on its own, and redelivering one endpoint calls that endpoint alone`, async ({
    page,
    context,
  }) => {
    test.setTimeout(90_000);
    const texts = TEXTS[locale];
    await context.addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
    await signUpThroughApi(page.request);
    const callback = await createEmailCallbackThroughApi(page.request, `two-${locale}-${Date.now()}`, {
      webhookUrl: first.url("/first"),
    });
    const secondEndpointId = await addEndpointThroughApi(page, callback.id, second.url("/second"));
    // The second receiver is down for an hour: its delivery waits for a retry that far off.
    secondReply = { status: 503, headers: { "Retry-After": "3600" }, body: "down for maintenance" };

    const subject = `Two destinations ${Date.now()}`;
    await sendMail(callback.address, subject);
    await first.waitForRequests(1);
    await second.waitForRequests(1);
    await page.goto(`/email-callbacks/${callback.id}/inbox`);
    await page.getByRole("link", { name: subject }).click();
    await expect(page.getByRole("heading", { name: subject })).toBeVisible();
    await expect(page.getByText(texts.summary(1))).toBeVisible();
    await page.getByRole("tab", { name: texts.tab }).click();

    const destination1 = page.getByRole("region", { name: "Destination 1" });
    const destination2 = page.getByRole("region", { name: "Destination 2" });
    const status = (region: typeof destination1, text: string) => region.getByText(text, { exact: true });
    const attemptsOf = (region: typeof destination1, destination: string) =>
      region.getByRole("list", { name: texts.attemptsOf(destination) }).getByRole("listitem");

    await expect(status(destination1, texts.delivered)).toBeVisible();
    await expect(destination1).toContainText(first.url("/first"));
    await expect(destination1).toContainText(texts.attempts(1));
    await expect(destination1).toContainText(texts.lastResponse(200));
    await expect(attemptsOf(destination1, "Destination 1")).toHaveCount(1);
    await expect(attemptsOf(destination1, "Destination 1").first()).toContainText("200");

    await expect(status(destination2, texts.pending)).toBeVisible();
    await expect(destination2).toContainText(second.url("/second"));
    await expect(destination2).toContainText(texts.nextAttempt);
    await expect(attemptsOf(destination2, "Destination 2")).toHaveCount(1);
    await expect(attemptsOf(destination2, "Destination 2").first()).toContainText("503");
    await expect(attemptsOf(destination2, "Destination 2").first()).toContainText("down for maintenance");

    // Redelivered while it waits, to a receiver that now refuses the mail: it fails at once.
    secondReply = { status: 400, body: '{"error":"unknown customer"}' };
    await destination2.getByRole("button", { name: texts.redeliver }).click();
    await expect(page.getByText(texts.started)).toBeVisible();
    await expect(status(destination2, texts.failed)).toBeVisible();
    await expect(destination2).toContainText(texts.attempts(2));
    await expect(destination2).toContainText(texts.lastResponse(400));
    await expect(attemptsOf(destination2, "Destination 2").first()).toContainText('{"error":"unknown customer"}');
    await expect(status(destination1, texts.delivered)).toBeVisible();
    expect(second.requests).toHaveLength(2);
    expect(first.requests).toHaveLength(1);
    await saveScreenshots(page, `message-deliveries-${locale}`);

    // The receiver is fixed: redelivering that endpoint delivers it, and the first is not called again.
    secondReply = { status: 200, body: "ok" };
    await destination2.getByRole("button", { name: texts.redeliver }).click();
    await expect(status(destination2, texts.delivered)).toBeVisible();
    await expect(destination2).toContainText(texts.attempts(3));
    await expect(page.getByText(texts.summary(2))).toBeVisible();
    expect(second.requests).toHaveLength(3);
    expect(second.requests.map((request) => request.path)).toEqual(["/second", "/second", "/second"]);
    expect(second.requests[2]?.headers["webhook-id"]).toBe(first.requests[0]?.headers["webhook-id"]);
    // Long enough for a stray delivery to the first endpoint to have arrived.
    await page.waitForTimeout(1_000);
    expect(first.requests).toHaveLength(1);

    // Its endpoint deleted, the delivery stays listed, named as removed, and can no longer be redelivered.
    const deleted = await page.request.delete(`${endpointsUrl(callback.id)}/${secondEndpointId}`, {
      headers: { Origin: DEFAULT_SERVER.url, "Content-Type": "application/json" },
    });
    expect(deleted.status()).toBe(204);
    await page.reload();
    await page.getByRole("tab", { name: texts.tab }).click();
    const removed = page.getByRole("region", { name: texts.removed });
    await expect(removed).toContainText(texts.removedHint);
    await expect(status(removed, texts.delivered)).toBeVisible();
    await expect(attemptsOf(removed, texts.removed)).toHaveCount(3);
    await expect(removed.getByRole("button", { name: texts.redeliver })).toHaveCount(0);
    await expect(status(destination1, texts.delivered)).toBeVisible();
  });
}
