// The pages of one address, as a user reads them: the tab that is current, the inbox's columns and
// their names while a long inbox scrolls, a mail's count of attempts, the created address's fields,
// and the Settings form's place on the page.
import { expect, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { startWebhookSink } from "../support/webhook-sink";
import { createEmailCallbackThroughApi, seedProcessings } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER, E2E_SMTP_PORT } from "./support/servers";

test("on a mail's page, the address's Inbox tab is the current one", async ({ page }) => {
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `tab-${Date.now()}`);
  await seedProcessings(callback.id, 1);
  await page.goto(`/email-callbacks/${callback.id}/inbox`);
  await page.getByRole("link", { name: "Seeded message 1" }).click();
  await expect(page.getByRole("heading", { name: "Seeded message 1" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Email sections" });
  await expect(tabs.getByRole("link", { name: "Inbox" })).toHaveAttribute("aria-current", "page");
  await expect(tabs.getByRole("link", { name: "Settings" })).not.toHaveAttribute("aria-current", "page");
});

test("a mail's header counts every attempt its Attempts tab lists, earlier series included", async ({ page }) => {
  const sink = await startWebhookSink();
  try {
    await signUpThroughApi(page.request);
    const callback = await createEmailCallbackThroughApi(page.request, `attempts-${Date.now()}`, {
      webhookUrl: sink.url("/hook"),
    });
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
    await transport.sendMail({ from: "bob@example.org", to: callback.address, subject: "Counted", text: "Hello" });
    transport.close();
    await sink.waitForRequests(1);
    const processingsPath = `${DEFAULT_SERVER.url}/api/email-callbacks/${callback.id}/processings`;
    const { emailProcessings } = await (await page.request.get(processingsPath)).json();
    const processingId = emailProcessings[0].id as string;
    const statusOf = async () =>
      (await (await page.request.get(`${processingsPath}/${processingId}`)).json()).emailProcessing.status;
    for (const expected of [2, 3]) {
      // A redelivery starts once the series before has ended.
      await expect.poll(statusOf).toBe("success");
      const response = await page.request.post(`${processingsPath}/${processingId}/redeliver`, {
        headers: { Origin: DEFAULT_SERVER.url, "Content-Type": "application/json" },
      });
      expect(response.ok()).toBe(true);
      await sink.waitForRequests(expected);
    }
    await expect.poll(statusOf).toBe("success");

    await page.goto(`/email-callbacks/${callback.id}/inbox/${processingId}`);
    await expect(page.getByText("3 attempts")).toBeVisible();
    await page.getByRole("tab", { name: "Attempts" }).click();
    await expect(page.getByRole("list", { name: "Delivery attempts" }).getByRole("listitem")).toHaveCount(3);
  } finally {
    await sink.close();
  }
});

test("from 1024 px the inbox's column names stay in sight under the top bar as a long inbox scrolls", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `sticky-${Date.now()}`);
  await seedProcessings(callback.id, 30);
  await page.goto(`/email-callbacks/${callback.id}/inbox?pageSize=50`);
  await expect(page.getByRole("link", { name: "Seeded message 1", exact: true })).toBeVisible();
  await page.mouse.wheel(0, 900);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  const topBar = await page.locator("header").first().boundingBox();
  const columnNames = await page.locator("thead th").first().boundingBox();
  expect(columnNames!.y).toBeCloseTo(topBar!.y + topBar!.height, 0);
});

test("in French at 1280 px, the inbox gives its width to senders and subjects rather than to Details", async ({
  page,
  context,
}) => {
  await context.addCookies([{ name: "hookmail-locale", value: "fr", url: DEFAULT_SERVER.url }]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `columns-${Date.now()}`);
  // Seeded mails carry the reasons (sender not allowed, webhook call failed); one real mail has a
  // long sender and subject.
  await seedProcessings(callback.id, 3);
  const subject = "Your invoice for November is ready";
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
  await transport.sendMail({ from: "billing-notifications@example.org", to: callback.address, subject, text: "Hello" });
  transport.close();
  await page.goto(`/email-callbacks/${callback.id}/inbox`);
  await expect(page.getByRole("row").filter({ hasText: subject })).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(5);

  const layout = await page.locator("tbody").evaluate((body) => ({
    truncated: [...body.querySelectorAll("tr")]
      .flatMap((row) => [...row.querySelectorAll("td")].slice(0, 2))
      .filter((cell) => cell.scrollWidth > cell.clientWidth)
      .map((cell) => cell.textContent),
    widths: [...body.closest("table")!.querySelectorAll("thead th")].map((cell) =>
      Math.round(cell.getBoundingClientRect().width),
    ),
  }));
  console.log("inbox (fr, 1280):", JSON.stringify(layout));
  // Ordinary senders and subjects are whole; a long one may still be cut (its title holds it all).
  expect(layout.truncated.filter((text) => /sender\d|Seeded message/.test(text ?? ""))).toEqual([]);
  const [from, subjectWidth, , details] = layout.widths as [number, number, number, number];
  expect(details).toBeLessThan(Math.min(from, subjectWidth));
});

test("the created address and its secret are shown in labelled fields", async ({ page }) => {
  await signUpThroughApi(page.request);
  await page.goto("/email-callbacks/create");
  const username = `labels-${Date.now()}`;
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Webhook URL").fill("https://hooks.example.com/incoming");
  await page.getByRole("button", { name: "Generate a random secret" }).click();
  await page.getByRole("button", { name: "Create email" }).click();
  await expect(page.getByText("Your email is ready")).toBeVisible();
  await expect(page.locator("label", { hasText: "Email address" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Email address" })).toHaveValue(`${username}@hookmail.test`);
  await expect(page.locator("label", { hasText: "Webhook secret" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Webhook secret" })).toHaveValue(/^[A-Za-z0-9]{42}$/);
});

test("the Settings form has the width and place of the New email form", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `width-${Date.now()}`);
  await page.goto("/email-callbacks/create");
  const createForm = await page.locator("form").first().locator("xpath=ancestor::*[@data-slot='card'][1]").boundingBox();
  await page.goto(`/email-callbacks/${callback.id}/settings`);
  await expect(page.getByLabel("Webhook URL")).toBeVisible();
  const settingsForm = await page.locator("form").first().locator("xpath=ancestor::*[@data-slot='card'][1]").boundingBox();
  expect(settingsForm!.x).toBeCloseTo(createForm!.x, 0);
  expect(settingsForm!.width).toBeCloseTo(createForm!.width, 0);
});
