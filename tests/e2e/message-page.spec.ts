// A mail's own page: reached from its inbox row, it shows the mail's parts from the webhook body
// sent (text, sandboxed HTML, headers, attachments, checks, the exact body) and its attempts, and
// downloads the .eml and the attachments.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { startWebhookSink, type WebhookSink } from "../support/webhook-sink";
import { createEmailCallbackThroughApi } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER, E2E_SMTP_PORT } from "./support/servers";

let sink: WebhookSink;
test.beforeEach(async () => {
  sink = await startWebhookSink();
});
test.afterEach(async () => {
  await sink.close();
});

const CSV = Buffer.from("id;name\n1;Zoë\n", "utf8");
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function sendMail(to: string, subject: string) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({
      from: "Bob <bob@example.org>",
      to,
      subject,
      text: "Plain words of the mail",
      html: '<p>Rich <b>words</b> <img src="https://images.example.org/track.png"><script>document.title="pwned"</script></p>',
      attachments: [{ filename: "données.csv", content: CSV, contentType: "text/csv" }],
    });
  } finally {
    transport.close();
  }
}

for (const locale of ["en", "fr"] as const) {
  test(`a mail's page in ${locale}: its parts, its body as sent, its downloads, and a phone layout`, async ({
    page,
    context,
  }) => {
    await context.addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
    await signUpThroughApi(page.request);
    const callback = await createEmailCallbackThroughApi(page.request, `page-${locale}-${Date.now()}`, {
      webhookUrl: sink.url("/hook"),
    });
    const subject = `Quarterly report ${Date.now()}`;
    await sendMail(callback.address, subject);
    await sink.waitForRequests(1);
    // The page's clock stops here, just after the mail arrived: its time reads "just now" in the
    // screenshot, however long the steps below take on a busy machine (timers keep running).
    await page.clock.setFixedTime(Date.now());

    await page.goto(`/email-callbacks/${callback.id}/inbox`);
    await page.getByRole("link", { name: subject }).click();
    await expect(page).toHaveURL(new RegExp(`/email-callbacks/${callback.id}/inbox/ep_`));
    await expect(page.getByRole("heading", { name: subject })).toBeVisible();
    await expect(page.getByText("bob@example.org")).toBeVisible();
    await expect(page.getByText("Plain words of the mail")).toBeVisible();

    const tab = (en: string, fr: string) => page.getByRole("tab", { name: locale === "en" ? en : fr });
    await tab("HTML", "HTML").click();
    const frame = page.locator("iframe");
    await expect(frame).toHaveAttribute("sandbox", "");
    await expect(frame.contentFrame().getByText("words")).toBeVisible();
    expect(await page.title()).not.toContain("pwned");

    await tab("Attachments", "Pièces jointes").click();
    const link = page.getByRole("link", { name: locale === "en" ? "Download données.csv" : "Télécharger données.csv" });
    const attachment = await page.request.get((await link.getAttribute("href"))!);
    expect(Buffer.from(await attachment.body()).equals(CSV)).toBe(true);

    await tab("Webhook body", "Corps du webhook").click();
    const sent = sink.requests[0]!.body.toString("utf8");
    await expect(page.locator("pre")).toContainText(`"subject": "${subject}"`);
    expect(JSON.parse(sent).data.subject).toBe(subject);

    const eml = await page.request.get(
      (await page.getByRole("link", { name: locale === "en" ? "Download .eml" : "Télécharger le .eml" }).getAttribute("href"))!,
    );
    expect(sha256(Buffer.from(await eml.body()))).toBe(JSON.parse(sent).data.raw.sha256);

    await tab("Attempts", "Tentatives").click();
    await expect(page.getByRole("list").getByText("200")).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await tab("Text", "Texte").click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect(page).toHaveScreenshot(`message-page-phone-${locale}.png`, {
      fullPage: true,
      // What changes from run to run: the address and the subject (h1s), the sink's port, the times.
      mask: [page.locator("h1"), page.getByText(/http:\/\/127\.0\.0\.1/), page.locator("time")],
    });
  });
}

/** A 1×1 PNG. */
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A plain-http image host on loopback that counts what it serves. */
async function startImageHost() {
  const served: string[] = [];
  const server = http.createServer((request, response) => {
    served.push(request.url ?? "");
    response.writeHead(200, { "Content-Type": "image/png", "Content-Length": PIXEL.length });
    response.end(PIXEL);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, served, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test("Load remote images loads an http:// image too, and nothing remote loads before it is pressed", async ({ page }) => {
  const images = await startImageHost();
  try {
    await signUpThroughApi(page.request);
    const callback = await createEmailCallbackThroughApi(page.request, `images-${Date.now()}`, { webhookUrl: sink.url("/hook") });
    const subject = `Newsletter ${Date.now()}`;
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({
        from: "news@example.org",
        to: callback.address,
        subject,
        text: "The newsletter.",
        html: `<p>Hello</p><img alt="Logo" width="40" height="40" src="${images.url}/logo.png">`,
      });
    } finally {
      transport.close();
    }
    await sink.waitForRequests(1);

    await page.goto(`/email-callbacks/${callback.id}/inbox`);
    await page.getByRole("link", { name: subject }).click();
    await page.getByRole("tab", { name: "HTML" }).click();
    const frame = page.locator("iframe").contentFrame();
    await expect(frame.getByText("Hello")).toBeVisible();
    await expect(page.getByText("Remote images are blocked.")).toBeVisible();
    // Give a blocked request every chance to go out before saying none did.
    await page.waitForTimeout(500);
    expect(images.served).toEqual([]);

    await page.getByRole("button", { name: "Load remote images" }).click();
    await expect.poll(() => images.served).toEqual(["/logo.png"]);
    await expect
      .poll(() => frame.getByRole("img", { name: "Logo" }).evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(1);
    await expect(page.getByText("Remote images are blocked.")).toBeHidden();
  } finally {
    await images.close();
  }
});

test("a mail with a large body: its page leaves the attachments' content out of the body shown, and downloads the exact body", async ({
  page,
  context,
}) => {
  await context.addCookies([{ name: "hookmail-locale", value: "fr", url: DEFAULT_SERVER.url }]);
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `large-${Date.now()}`, { webhookUrl: sink.url("/hook") });
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
  const subject = `Archive ${Date.now()}`;
  try {
    await transport.sendMail({
      from: "bob@example.org",
      to: callback.address,
      subject,
      text: "The archive is attached.",
      attachments: [{ filename: "archive.bin", content: Buffer.alloc(1536 * 1024, 7) }],
    });
  } finally {
    transport.close();
  }
  await sink.waitForRequests(1);
  const sent = sink.requests[0]!.body;

  await page.goto(`/email-callbacks/${callback.id}/inbox`);
  await page.getByRole("link", { name: subject }).click();
  await page.getByRole("tab", { name: "Pièces jointes" }).click();
  await expect(page.getByText("application/octet-stream · 1,5 Mo")).toBeVisible();
  await page.getByRole("tab", { name: "Corps du webhook" }).click();
  await expect(page.getByText(/Ce corps fait 2(,\d)?\sMo : le contenu des pièces jointes n'est pas affiché/)).toBeVisible();
  await expect(page.locator("pre")).toContainText('"content": null');
  await expect(page.getByRole("button", { name: "Copier le corps du webhook" })).toHaveCount(0);

  const download = await page.request.get((await page.getByRole("link", { name: "Télécharger le corps" }).getAttribute("href"))!);
  expect(download.headers()["content-type"]).toBe("application/json");
  expect(Buffer.from(await download.body()).equals(sent)).toBe(true);
});
