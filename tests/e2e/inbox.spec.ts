// The inbox of an address, end to end: its status filter and search live in the URL (a reload shows
// the same mails, the back button the view before), "no mail matches" is told apart from an empty
// inbox, "Redeliver all failed" asks first naming how many and then redelivers them, and on a
// phone the mails stack so that nothing scrolls sideways. Screenshots for a look go to
// /tmp/inbox-shots/ (not baselines).
import { expect, type Page, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { startWebhookSink, type WebhookSink } from "../support/webhook-sink";
import { createEmailCallbackThroughApi } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER, E2E_SMTP_PORT } from "./support/servers";

const SHOTS_DIR = "/tmp/inbox-shots";

let sink: WebhookSink;
test.beforeEach(async () => {
  sink = await startWebhookSink();
});
test.afterEach(async () => {
  await sink.close();
});

type Mail = { subject: string; from?: string; fails?: boolean };

/** Sends each mail over SMTP in turn and waits for its webhook call: answered 400 (a final failure) when it `fails`. */
async function receive(to: string, mails: Mail[]) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
  try {
    for (const { subject, from = "Bob <bob@example.org>", fails = false } of mails) {
      sink.reply(fails ? { status: 400, body: "refused" } : { status: 200 });
      const before = sink.requests.length;
      await transport.sendMail({ from, to, subject, text: `Body of ${subject}` });
      await sink.waitForRequests(before + 1);
    }
  } finally {
    transport.close();
  }
}

async function openInboxWith(page: Page, mails: Mail[], locale: "en" | "fr" = "en") {
  await page.context().addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `inbox-${locale}-${Date.now()}`, {
    webhookUrl: sink.url("/hook"),
  });
  await receive(callback.address, mails);
  await page.goto(`/email-callbacks/${callback.id}/inbox`);
  return callback;
}

const subjectLink = (page: Page, subject: string) => page.getByRole("link", { name: subject, exact: true });

/** Exactly these mails are listed (by subject), in this order. */
async function expectListed(page: Page, subjects: string[]) {
  await expect(page.locator("tbody tr").getByRole("link")).toHaveText(subjects);
}

test("the status filter and the search are kept in the URL, survive a reload, and Back returns to the view before", async ({
  page,
}) => {
  await openInboxWith(page, [
    { subject: "Invoice 100% paid", fails: true },
    { subject: "Welcome aboard", from: "Carol <carol@shop.example>", fails: true },
    { subject: "Invoice reminder" },
    { subject: "Invoice 100 paid" },
  ]);
  const all = ["Invoice 100 paid", "Invoice reminder", "Welcome aboard", "Invoice 100% paid"];
  await expectListed(page, all);
  const search = page.getByRole("searchbox", { name: "Search sender or subject" });
  const status = page.getByRole("combobox", { name: "Status" });

  await status.selectOption({ label: "Error" });
  await expect(page).toHaveURL(/\/inbox\?status=error$/);
  await expectListed(page, ["Welcome aboard", "Invoice 100% paid"]);

  await search.fill("INVOICE");
  await expect(page).toHaveURL(/\/inbox\?status=error&q=INVOICE$/);
  await expectListed(page, ["Invoice 100% paid"]);

  await page.reload();
  await expect(search).toHaveValue("INVOICE");
  await expect(status.locator("option:checked")).toHaveText("Error");
  await expectListed(page, ["Invoice 100% paid"]);

  await page.goBack();
  await expect(page).toHaveURL(/\/inbox\?status=error$/);
  await expect(search).toHaveValue("");
  await expectListed(page, ["Welcome aboard", "Invoice 100% paid"]);
  await page.goBack();
  await expect(page).toHaveURL(/\/inbox$/);
  await expectListed(page, all);

  // The search takes "%" as itself, and matches the sender too.
  await search.fill("100%");
  await expect(page).toHaveURL(/\/inbox\?q=100%25$/);
  await expectListed(page, ["Invoice 100% paid"]);
  await search.fill("shop.example");
  await expectListed(page, ["Welcome aboard"]);

  await search.fill("nobody wrote this");
  await expect(page.getByRole("heading", { name: "No mail matches" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No mail received yet" })).toBeHidden();
  await page.screenshot({ path: `${SHOTS_DIR}/inbox-no-match-en.png` });
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(search).toHaveValue("");
  await expectListed(page, all);
});

test("Redeliver all failed names how many in its confirmation, then redelivers each failed mail", async ({ page }) => {
  await openInboxWith(page, [
    { subject: "Failed one", fails: true },
    { subject: "Failed two", fails: true },
    { subject: "Delivered", fails: false },
    { subject: "Failed three", fails: true },
  ]);
  await expect(page.locator("tbody tr").filter({ hasText: "Error" })).toHaveCount(3);
  const failedIds = [0, 1, 3].map((index) => JSON.parse(sink.requests[index]!.body.toString("utf8")).data.id);

  await page.getByRole("button", { name: "Redeliver all failed" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Redeliver 3 failed emails?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Redeliver" }).click();

  await expect(page.getByText("Redelivery started for 3 emails")).toBeVisible();
  await sink.waitForRequests(7);
  const redelivered = sink.requests.slice(4).map((request) => JSON.parse(request.body.toString("utf8")).data.id);
  expect(redelivered.sort()).toEqual(failedIds.sort());
  await expect(page.locator("tbody tr").filter({ hasText: "Success" })).toHaveCount(4);
  await expect(page.getByRole("button", { name: "Redeliver all failed" })).toBeHidden();
});

for (const locale of ["en", "fr"] as const) {
  test(`on a 390px phone the inbox stacks its mails and scrolls only down (${locale}); screenshots`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openInboxWith(
      page,
      [
        { subject: "Order #4521 confirmed", fails: true },
        {
          subject: "A rather long subject line that would never fit on a phone screen in one go",
          from: "Notifications <a-very-long-sender-address-for-notifications@subdomain.example.org>",
        },
        { subject: "Weekly digest" },
      ],
      locale,
    );
    const redeliverAll = locale === "en" ? "Redeliver all failed" : "Renvoyer les échecs";
    await expect(page.getByRole("button", { name: redeliverAll })).toBeVisible();
    await expect(page.locator("tbody tr")).toHaveCount(3);
    await page.screenshot({ path: `${SHOTS_DIR}/inbox-desktop-${locale}.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("table")).toBeHidden();
    const list = page.getByRole("list", { name: /hookmail\.test/ });
    await expect(list.getByRole("listitem")).toHaveCount(3);
    await expect(subjectLink(page, "Weekly digest")).toBeVisible();
    const overflow = await page.evaluate(() => {
      const scrolling = document.scrollingElement!;
      return { scrollWidth: scrolling.scrollWidth, clientWidth: scrolling.clientWidth };
    });
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.clientWidth);
    await page.screenshot({ path: `${SHOTS_DIR}/inbox-phone-${locale}.png`, fullPage: true });

    await page.getByRole("button", { name: redeliverAll }).click();
    await expect(page.getByRole("alertdialog")).toContainText(
      locale === "en" ? "Redeliver 1 failed email?" : "Renvoyer 1 e-mail en échec ?",
    );
    await page.screenshot({ path: `${SHOTS_DIR}/inbox-phone-confirm-${locale}.png`, animations: "disabled" });
  });
}

test("the open inbox follows the address's events stream: a new mail and its delivery's failure show without a reload or polling", async ({
  page,
}) => {
  const streamOpened = page.waitForResponse((response) => /\/api\/email-callbacks\/[^/]+\/events$/.test(response.url()));
  const callback = await openInboxWith(page, [{ subject: "Already here" }]);
  expect((await streamOpened).headers()["content-type"]).toContain("text/event-stream");
  await expectListed(page, ["Already here"]);

  // From here on the inbox must not poll: only an event can bring the new row (well within the
  // 15 s the polling took).
  const listCalls: number[] = [];
  page.on("request", (request) => {
    if (/\/processings\?/.test(request.url())) listCalls.push(Date.now());
  });
  const sentAt = Date.now();
  await receive(callback.address, [{ subject: "Arrives live", fails: true }]);
  await expect(subjectLink(page, "Arrives live")).toBeVisible({ timeout: 5_000 });
  await expect(page.locator("tbody tr").filter({ hasText: "Arrives live" }).getByText("Error")).toBeVisible({ timeout: 5_000 });
  expect(listCalls.length).toBeGreaterThan(0);
  expect(listCalls.every((at) => at >= sentAt)).toBe(true);
});
