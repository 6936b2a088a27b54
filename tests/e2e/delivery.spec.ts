// Delivery journeys end to end: mail sent over SMTP to the test server's MX reaches a webhook
// receiver the test runs on loopback, and the inbox shows the outcome; a refused delivery is
// inspected in the attempts view and redelivered; "Send test mail" lands in the inbox and the
// receiver.
import { createHash } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { startWebhookSink, type WebhookSink } from "../support/webhook-sink";
import { createEmailCallbackThroughApi } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { E2E_SMTP_PORT } from "./support/servers";

let sink: WebhookSink;

test.beforeEach(async () => {
  sink = await startWebhookSink();
});
test.afterEach(async () => {
  await sink.close();
});

async function sendMail({ to, subject }: { to: string; subject: string }) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: "Bob <bob@example.org>", to, subject, text: `Body of ${subject}` });
  } finally {
    transport.close();
  }
}

function readWebhookBody(index: number) {
  const request = sink.requests[index];
  if (!request) throw new Error(`no webhook request #${index}`);
  return JSON.parse(request.body.toString("utf8")) as {
    type: string;
    data: {
      id: string;
      subject: string;
      from: { address: string };
      raw: { url: string; size: number; sha256: string };
    };
  };
}

const inboxRow = (page: Page, subject: string) => page.getByRole("row").filter({ hasText: subject });

async function openRowAction(page: Page, subject: string, action: "Delivery attempts" | "Redeliver") {
  await inboxRow(page, subject).getByRole("button", { name: "Actions for this mail" }).click();
  await page.getByRole("menuitem", { name: action }).click();
}

test("a mail sent over SMTP reaches the webhook and shows as Success with 200 in the inbox", async ({ page }) => {
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `relay-${Date.now()}`, { webhookUrl: sink.url("/hook") });
  const subject = `Invoice ${Date.now()}`;

  await sendMail({ to: callback.address, subject });
  await page.goto(`/email-callbacks/${callback.id}/inbox`);

  const row = inboxRow(page, subject);
  await expect(row).toContainText("bob@example.org");
  await expect(row).toContainText("Success");
  await expect(row).toContainText("200");
  await sink.waitForRequests(1);
  expect(sink.requests[0]?.path).toBe("/hook");
  expect(readWebhookBody(0)).toMatchObject({ type: "email.received", data: { subject, from: { address: "bob@example.org" } } });

  // The payload's link to the message as received is served by the app, without a session.
  const { raw } = readWebhookBody(0).data;
  const served = await fetch(raw.url);
  expect(served.status).toBe(200);
  expect(served.headers.get("content-type")).toBe("message/rfc822");
  const bytes = Buffer.from(await served.arrayBuffer());
  expect(bytes.length).toBe(raw.size);
  expect(createHash("sha256").update(bytes).digest("hex")).toBe(raw.sha256);
  expect(
    (await fetch(raw.url.replace(/signature=(.)/, (_: string, first: string) => `signature=${first === "0" ? "1" : "0"}`)))
      .status,
  ).toBe(404);
});

test("a webhook answering 400 shows Error in the inbox and in the attempts view; Redeliver then succeeds", async ({ page }) => {
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `refused-${Date.now()}`, { webhookUrl: sink.url() });
  const subject = `Refused ${Date.now()}`;
  sink.reply({ status: 400, headers: { "Content-Type": "application/json" }, body: '{"error":"unknown customer"}' });

  await sendMail({ to: callback.address, subject });
  await page.goto(`/email-callbacks/${callback.id}/inbox`);

  const row = inboxRow(page, subject);
  await expect(row).toContainText("Error");
  await expect(row).toContainText("Webhook call failed");
  await expect(row).toContainText("400");

  await openRowAction(page, subject, "Delivery attempts");
  const dialog = page.getByRole("dialog", { name: "Delivery attempts" });
  await expect(dialog).toContainText(subject);
  const attempts = dialog.getByRole("list", { name: "Delivery attempts" }).getByRole("listitem");
  await expect(attempts).toHaveCount(1);
  await expect(attempts.first()).toContainText("400");
  await expect(attempts.first()).toContainText('{"error":"unknown customer"}');
  await expect(attempts.first()).toContainText(/\d+ ms/);
  await dialog.getByRole("button", { name: "Close" }).first().click();
  await expect(dialog).toBeHidden();

  // The sink answers 200 from now on.
  await openRowAction(page, subject, "Redeliver");
  await expect(page.getByText("Redelivery started")).toBeVisible();
  await expect(row).toContainText("Success");
  await expect(row).toContainText("200");
  await expect(row).not.toContainText("Webhook call failed");
  expect(sink.requests).toHaveLength(2);
  expect(readWebhookBody(1).data.id).toBe(readWebhookBody(0).data.id);
  expect(sink.requests[1]?.headers["webhook-id"]).toBe(sink.requests[0]?.headers["webhook-id"]);

  await openRowAction(page, subject, "Delivery attempts");
  await expect(attempts).toHaveCount(2);
  await expect(attempts.nth(0)).toContainText("200");
  await expect(attempts.nth(1)).toContainText("400");
});

test("Send test mail on the detail page puts a test mail in the inbox and delivers it to the webhook", async ({ page }) => {
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `tester-${Date.now()}`, { webhookUrl: sink.url() });
  await page.goto(`/email-callbacks/${callback.id}/settings`);

  await page.getByRole("button", { name: "Send test mail" }).click();
  await expect(page.getByText("Test mail sent: see the inbox")).toBeVisible();
  await page.getByRole("navigation", { name: "Email sections" }).getByRole("link", { name: "Inbox" }).click();

  const row = inboxRow(page, "Hookmail test mail");
  await expect(row).toContainText("test@hookmail.test");
  await expect(row).toContainText("Success");
  await expect(row).toContainText("200");
  await sink.waitForRequests(1);
  expect(readWebhookBody(0)).toMatchObject({
    type: "email.received",
    data: { subject: "Hookmail test mail", from: { address: "test@hookmail.test" } },
  });
});
