// An address's destinations in its Settings tab (docs/webhooks.md: Endpoints, Filters): added, edited
// and removed through the dialog, then mail sent over real SMTP reaches each loopback receiver in its
// format, signed with its scheme (HMAC with the address's secret, Ed25519 verified with the public
// key the page shows), and only the mail its filter takes. Then the page and the dialog in en and
// fr, at a desktop width and a phone's, saved to the test's output folder (test-results/) to be
// looked at; neither ever scrolls sideways.
import { createHmac, createPublicKey, randomBytes, verify } from "node:crypto";
import { type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { type SinkRequest, startWebhookSink, type WebhookSink } from "../support/webhook-sink";
import { createEmailCallbackThroughApi, setPlanThroughSink } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER, E2E_SMTP_PORT } from "./support/servers";

const ADDRESS_SECRET = "address-secret-of-the-test-0123456789";
/** The DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 raw bytes of the key follow. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

let sinks: WebhookSink[] = [];
test.afterEach(async () => {
  await Promise.all(sinks.map((sink) => sink.close()));
  sinks = [];
});

async function startSinks(count: number) {
  sinks = await Promise.all(Array.from({ length: count }, () => startWebhookSink()));
  return sinks;
}

/** A pro account (10 destinations per address) signed in, with an address whose webhook is `webhookUrl`. */
async function signUpWithAddress(page: Page, webhookUrl: string) {
  const { email } = await signUpThroughApi(page.request);
  await setPlanThroughSink(email, "pro");
  return createEmailCallbackThroughApi(page.request, `dest-${randomBytes(4).toString("hex")}`, {
    webhookUrl,
    webhookSecret: ADDRESS_SECRET,
  });
}

/** A message's exact bytes, sent as they are over SMTP. */
async function sendRawMail(to: string, subject: string): Promise<Buffer> {
  const raw = Buffer.from(
    [
      "From: Bob <bob@example.org>",
      `To: ${to}`,
      `Subject: ${subject}`,
      `Message-ID: <${randomBytes(8).toString("hex")}@example.org>`,
      `Date: ${new Date().toUTCString()}`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "",
      `Body of ${subject}.`,
      "",
    ].join("\r\n"),
  );
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ envelope: { from: "bob@example.org", to: [to] }, raw });
  } finally {
    transport.close();
  }
  return raw;
}

/** What is signed: `<webhook-id>.<webhook-timestamp>.<body>`; and the signatures of the header. */
function readSignature(request: SinkRequest, version: "v1" | "v1a") {
  const signed = Buffer.concat([
    Buffer.from(`${request.headers["webhook-id"]}.${request.headers["webhook-timestamp"]}.`),
    request.body,
  ]);
  const signatures = String(request.headers["webhook-signature"] ?? "")
    .split(" ")
    .filter((entry) => entry.startsWith(`${version},`))
    .map((entry) => Buffer.from(entry.slice(version.length + 1), "base64"));
  return { signed, signatures };
}

function hasHmacSignature(request: SinkRequest, secret: string) {
  const { signed, signatures } = readSignature(request, "v1");
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(signed).digest();
  return signatures.some((signature) => signature.equals(expected));
}

function hasEd25519Signature(request: SinkRequest, publicKey: string) {
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKey.slice("whpk_".length), "base64")]),
    format: "der",
    type: "spki",
  });
  const { signed, signatures } = readSignature(request, "v1a");
  return signatures.length > 0 && signatures.every((signature) => verify(null, signed, key, signature));
}

const subjectOf = (request: SinkRequest) =>
  (JSON.parse(request.body.toString("utf8")) as { data: { subject: string } }).data.subject;

test("destinations added in Settings each get the mail in their format and signature, a filter keeps only the invoice, an edited then removed destination leaves the list, and the list follows the address's webhook URL", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const [sinkA, sinkB, sinkC] = (await startSinks(3)) as [WebhookSink, WebhookSink, WebhookSink];
  const callback = await signUpWithAddress(page, sinkA.url("/a"));
  await page.goto(`/email-callbacks/${callback.id}/settings`);

  const list = page.getByRole("list", { name: "Destinations" });
  const rows = list.getByRole("listitem");
  await expect(rows).toHaveCount(1);
  // The address's webhook is its first destination, and an address needs one: it cannot be removed.
  await expect(rows.first()).toHaveAccessibleName(sinkA.url("/a"));
  await expect(rows.first().getByRole("button", { name: "Remove" })).toBeDisabled();
  await expect(page.getByText("An address needs at least one destination: this one cannot be removed.")).toBeVisible();

  // B: the raw message, signed with Ed25519.
  await page.getByRole("button", { name: "Add destination" }).click();
  let dialog = page.getByRole("dialog", { name: "Add a destination" });
  await dialog.getByLabel("URL").fill(sinkB.url("/b"));
  await dialog.getByLabel("Format").selectOption({ label: "Raw message" });
  await dialog.getByLabel("Signature").selectOption({ label: "Ed25519" });
  await dialog.getByRole("button", { name: "Add destination" }).click();
  await expect(dialog).toBeHidden();
  const rowB = list.getByRole("listitem", { name: sinkB.url("/b") });
  await expect(rowB).toContainText("Raw message");
  await expect(rowB).toContainText("Ed25519");
  await expect(rowB).toContainText("Every mail");
  const publicKey = await rowB.getByRole("textbox", { name: "Public key" }).inputValue();
  expect(publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
  await expect(rowB.getByRole("button", { name: "Copy public key" })).toBeVisible();

  // C: JSON with a generated HMAC secret, shown once, for mail whose subject contains "invoice".
  await page.getByRole("button", { name: "Add destination" }).click();
  dialog = page.getByRole("dialog", { name: "Add a destination" });
  await dialog.getByLabel("URL").fill(sinkC.url("/c"));
  await dialog.getByLabel("Which mail").selectOption("all");
  await expect(dialog.getByLabel("Condition 1 field")).toHaveValue("subject");
  await expect(dialog.getByLabel("Condition 1 operator")).toHaveValue("contains");
  await dialog.getByLabel("Condition 1 value").fill("invoice");
  await dialog.getByRole("button", { name: "Add destination" }).click();
  dialog = page.getByRole("dialog", { name: "Destination saved" });
  await expect(dialog).toContainText("it will not be shown again");
  const secretC = await dialog.getByRole("textbox", { name: "Secret" }).inputValue();
  expect(secretC.length).toBeGreaterThanOrEqual(16);
  await expect(dialog.getByRole("button", { name: "Copy secret" })).toBeVisible();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  const rowC = list.getByRole("listitem", { name: sinkC.url("/c") });
  await expect(rowC).toContainText("Only when Subject contains “invoice”");
  await expect(rows).toHaveCount(3);
  await expect(rows.first().getByRole("button", { name: "Remove" })).toBeEnabled();

  const invoice = await sendRawMail(callback.address, "Invoice 42");
  const hello = await sendRawMail(callback.address, "Hello");
  await Promise.all([sinkA.waitForRequests(2), sinkB.waitForRequests(2), sinkC.waitForRequests(1)]);
  // Both mails are delivered everywhere they go before C's count is read.
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/email-callbacks/${callback.id}/processings`);
      const { emailProcessings } = (await response.json()) as { emailProcessings: { status: string }[] };
      return emailProcessings.map(({ status }) => status);
    })
    .toEqual(["success", "success"]);

  expect(sinkA.requests.map(subjectOf).sort()).toEqual(["Hello", "Invoice 42"]);
  for (const request of sinkA.requests) {
    expect(request.headers["content-type"]).toContain("application/json");
    expect(hasHmacSignature(request, ADDRESS_SECRET)).toBe(true);
  }
  expect(sinkB.requests.map((request) => request.body.toString("base64")).sort()).toEqual(
    [invoice, hello].map((raw) => raw.toString("base64")).sort(),
  );
  for (const request of sinkB.requests) {
    expect(request.headers["content-type"]).toBe("message/rfc822");
    expect(request.headers["webhook-signature"]).toMatch(/^v1a,/);
    expect(hasEd25519Signature(request, publicKey)).toBe(true);
  }
  expect(sinkC.requests.map(subjectOf)).toEqual(["Invoice 42"]);
  expect(hasHmacSignature(sinkC.requests[0]!, secretC)).toBe(true);

  // C is switched off, then removed.
  await rowC.getByRole("button", { name: "Edit" }).click();
  dialog = page.getByRole("dialog", { name: "Edit destination" });
  await expect(dialog.getByLabel("URL")).toHaveValue(sinkC.url("/c"));
  await expect(dialog.getByLabel("Condition 1 value")).toHaveValue("invoice");
  await dialog.getByRole("checkbox", { name: "Enabled" }).uncheck();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(rowC).toContainText("Disabled");
  await rowC.getByRole("button", { name: "Remove" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Remove this destination?" });
  await confirm.getByRole("button", { name: "Remove" }).click();
  await expect(rowC).toBeHidden();
  await expect(rows).toHaveCount(2);
  const listed = await page.request.get(`/api/email-callbacks/${callback.id}/endpoints`);
  expect(((await listed.json()) as { endpoints: { url: string }[] }).endpoints.map(({ url }) => url)).toEqual([
    sinkA.url("/a"),
    sinkB.url("/b"),
  ]);

  // The address's webhook URL is its first destination's: changed in the form above, the list follows.
  await page.getByLabel("Webhook URL").fill(sinkA.url("/a2"));
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(rows.first()).toHaveAccessibleName(sinkA.url("/a2"));

  // And the other way: the first destination changed in its dialog is what the form then shows, so
  // saving the form for another change does not send the old URL back.
  await rows.first().getByRole("button", { name: "Edit" }).click();
  dialog = page.getByRole("dialog", { name: "Edit destination" });
  await dialog.getByLabel("URL").fill(sinkA.url("/a3"));
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel("Webhook URL")).toHaveValue(sinkA.url("/a3"));
  await page.getByRole("button", { name: "Add sender address" }).click();
  await page.getByRole("textbox", { name: "Allowed sender address 1" }).fill("@example.org");
  await page.getByRole("button", { name: "Save changes" }).click();
  type Saved = { emailCallback: { webhookUrl: string; allowedOrigins: string[] } };
  const readSaved = async () =>
    ((await (await page.request.get(`/api/email-callbacks/${callback.id}`)).json()) as Saved).emailCallback;
  await expect.poll(async () => (await readSaved()).allowedOrigins).toEqual(["@example.org"]);
  expect((await readSaved()).webhookUrl).toBe(sinkA.url("/a3"));
});

test("the dialog shows the server's refusals in the user's words: a pattern that does not compile, then the plan's limit of two destinations", async ({
  page,
}) => {
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `limits-${randomBytes(4).toString("hex")}`);
  await page.goto(`/email-callbacks/${callback.id}/settings`);
  const rows = page.getByRole("list", { name: "Destinations" }).getByRole("listitem");
  await expect(rows).toHaveCount(1);

  await page.getByRole("button", { name: "Add destination" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a destination" });
  await dialog.getByLabel("URL").fill("https://hooks.example.com/second");
  await dialog.getByLabel("Which mail").selectOption("any");
  await dialog.getByLabel("Condition 1 operator").selectOption("matches");
  await dialog.getByLabel("Condition 1 value").fill("(unclosed");
  await dialog.getByRole("button", { name: "Add destination" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("The filter is invalid: check each condition's field, operator and value.");
  await dialog.getByLabel("Condition 1 value").fill("^invoice [0-9]+$");
  await dialog.getByRole("button", { name: "Add destination" }).click();
  await page.getByRole("dialog", { name: "Destination saved" }).getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(2);

  await page.getByRole("button", { name: "Add destination" }).click();
  await dialog.getByLabel("URL").fill("https://hooks.example.com/third");
  await dialog.getByRole("button", { name: "Add destination" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    "You have reached the maximum number of destinations for one address on your plan: upgrade your plan to add more.",
  );
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(2);
});

const TEXTS = {
  en: { edit: "Edit", dialog: "Edit destination", secondHeader: "Header 2 name" },
  fr: { edit: "Modifier", dialog: "Modifier la destination", secondHeader: "Nom de l'en-tête 2" },
} as const;

async function useLocale(context: BrowserContext, locale: "en" | "fr") {
  await context.addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
}

/**
 * The page (or the open dialog) at both widths; neither the page nor the dialog scrolls sideways. A
 * dialog taller than the screen scrolls: it is saved again scrolled to its end.
 */
async function saveScreenshots(page: Page, shown: Locator, name: string, { isScrolling = false } = {}) {
  for (const { width, height, label } of [
    { width: 1280, height: 800, label: "desktop" },
    { width: 390, height: 844, label: "phone" },
  ]) {
    await page.setViewportSize({ width, height });
    await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
    await expect(shown).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await shown.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: test.info().outputPath(`${name}-${label}.png`),
      fullPage: true,
      animations: "disabled",
      style: "[data-sonner-toaster] { display: none !important; }",
    });
    if (isScrolling) {
      await shown.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      await page.screenshot({ path: test.info().outputPath(`${name}-${label}-end.png`), animations: "disabled" });
      await shown.evaluate((element) => element.scrollTo(0, 0));
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function addEndpointThroughApi(page: Page, emailCallbackId: string, body: Record<string, unknown>) {
  const response = await page.request.post(`${DEFAULT_SERVER.url}/api/email-callbacks/${emailCallbackId}/endpoints`, {
    headers: { Origin: DEFAULT_SERVER.url },
    data: body,
  });
  if (response.status() !== 201) throw new Error(`adding the endpoint failed: ${response.status()} ${await response.text()}`);
}

for (const locale of ["en", "fr"] as const) {
  test(`the Settings tab with three destinations, and the dialog of one with headers and a two-condition filter, in ${locale}`, async ({
    page,
    context,
  }) => {
    test.setTimeout(60_000);
    await useLocale(context, locale);
    const callback = await signUpWithAddress(page, "https://hooks.example.com/incoming/orders-and-invoices/from-hookmail");
    await addEndpointThroughApi(page, callback.id, {
      url: "https://archive.example.net/mail/raw-messages-for-the-long-term-store",
      format: "raw",
      signing: { scheme: "ed25519" },
    });
    await addEndpointThroughApi(page, callback.id, {
      url: "https://crm.example.org/api/v2/inbound",
      headers: { Authorization: "Bearer crm-token-123", "X-Team": "billing" },
      timeoutMs: 5000,
      filter: {
        match: "all",
        conditions: [
          { field: "subject", op: "contains", value: "invoice" },
          { field: "header:x-priority", op: "equals", value: "1" },
        ],
      },
      isEnabled: false,
    });
    await page.goto(`/email-callbacks/${callback.id}/settings`);
    const rows = page.getByRole("list", { name: "Destinations" }).getByRole("listitem");
    await expect(rows).toHaveCount(3);
    await rows.last().scrollIntoViewIfNeeded();
    await saveScreenshots(page, page.getByRole("list", { name: "Destinations" }), `endpoints-list-${locale}`);

    await rows.last().getByRole("button", { name: TEXTS[locale].edit }).click();
    const dialog = page.getByRole("dialog", { name: TEXTS[locale].dialog });
    await expect(dialog.getByLabel(TEXTS[locale].secondHeader)).toBeVisible();
    await saveScreenshots(page, dialog, `endpoints-dialog-${locale}`, { isScrolling: true });
  });
}
