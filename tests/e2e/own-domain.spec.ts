// A user's own domain from start to mail (docs/domains.md): added on the Domains page, its two
// records published on the test server's DNS, verified with "Verify now"; an exact address, a
// pattern and a catch-all on it each receive their mail, sent over SMTP to the server's MX, at their
// own webhook; another account can neither add the held name nor make an address on it; and "Where
// would this address go?" names the address that takes each recipient.
import { expect, type Page, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { startWebhookSink, type WebhookSink } from "../support/webhook-sink";
import { createEmailCallbackThroughApi } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { publishDnsRecords, removeDnsRecords } from "./support/dns";
import { DEFAULT_SERVER, E2E_SMTP_PORT } from "./support/servers";

const DOMAIN = "acme.example";

const sinks: WebhookSink[] = [];

test.afterEach(async () => {
  await Promise.all(sinks.splice(0).map((sink) => sink.close()));
  await removeDnsRecords(`_hookmail.${DOMAIN}`);
  await removeDnsRecords(DOMAIN);
});

async function sendMail({ to, subject }: { to: string; subject: string }) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: "Bob <bob@example.org>", to, subject, text: `Body of ${subject}` });
  } finally {
    transport.close();
  }
}

function readWebhookData(sink: WebhookSink) {
  const [request] = sink.requests;
  if (!request) throw new Error("no webhook request");
  return (JSON.parse(request.body.toString("utf8")) as { data: { recipient: string; address: string; subject: string } }).data;
}

/** Asks "Where would this address go?" and expects the address that takes it and how. */
async function expectRoute(page: Page, recipient: string, { address, match }: { address: string; match: string }) {
  await page.getByLabel("Address", { exact: true }).fill(recipient);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  const answer = page.locator("output");
  await expect(answer).toContainText(`Mail to ${recipient} goes to`);
  await expect(answer.getByRole("link", { name: address, exact: true })).toBeVisible();
  await expect(answer.getByText(match, { exact: true })).toBeVisible();
}

test("a user verifies acme.example through its DNS records, and its exact address, pattern and catch-all each receive their mail", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUpThroughApi(page.request);
  await page.goto("/domains");
  await page.getByLabel("Domain name").fill(DOMAIN);
  await page.getByRole("button", { name: "Add domain" }).click();
  const card = page.getByRole("region", { name: DOMAIN });
  await expect(card.getByText("Pending", { exact: true })).toBeVisible();

  // The two records as the page shows them, published on the DNS server that the app asks.
  const txtRow = card.getByRole("row", { name: /TXT/ });
  const mxRow = card.getByRole("row", { name: /MX/ });
  await expect(txtRow.locator("code").first()).toHaveText(`_hookmail.${DOMAIN}`);
  await expect(mxRow.locator("code").first()).toHaveText(DOMAIN);
  const token = await txtRow.locator("code").nth(1).textContent();
  expect(token).toMatch(/^hookmail-verification=[A-Za-z0-9]{32}$/);
  const mxHost = await mxRow.locator("code").nth(1).textContent();
  await publishDnsRecords(`_hookmail.${DOMAIN}`, { TXT: [token ?? ""] });
  await publishDnsRecords(DOMAIN, { MX: [{ exchange: mxHost ?? "", priority: 10 }] });

  await card.getByRole("button", { name: "Verify now" }).click();
  await expect(page.getByText(`${DOMAIN} is verified: you can create emails on it`)).toBeVisible();
  await expect(card.getByText("Verified", { exact: true })).toBeVisible();
  await expect(card.getByText(/not found|does not contain|points to/)).toHaveCount(0);

  // Each address with its own receiver.
  const addresses = [
    { username: "support", to: `support@${DOMAIN}`, match: "Exact address" },
    { username: "orders-*", to: `Orders-42@${DOMAIN}`, match: "Pattern" },
    { username: "*", to: `anything@${DOMAIN}`, match: "Catch-all" },
  ];
  for (const address of addresses) {
    const sink = await startWebhookSink();
    sinks.push(sink);
    await createEmailCallbackThroughApi(page.request, address.username, { domain: DOMAIN, webhookUrl: sink.url() });
  }
  for (const [index, { to }] of addresses.entries()) await sendMail({ to, subject: `To ${to} (${index})` });
  for (const [index, { username, to }] of addresses.entries()) {
    const sink = sinks[index]!;
    await sink.waitForRequests(1);
    // Only its own mail, with the recipient as the sender wrote it.
    expect(sink.requests).toHaveLength(1);
    expect(readWebhookData(sink)).toMatchObject({
      recipient: to,
      address: `${username}@${DOMAIN}`,
      subject: `To ${to} (${index})`,
    });
  }

  for (const { username, to, match } of addresses) {
    await expectRoute(page, to.toLowerCase(), { address: `${username}@${DOMAIN}`, match });
  }

  // Another account: the name is held, so it cannot add it, nor make an address on it.
  const other = await browser.newContext({ baseURL: DEFAULT_SERVER.url });
  try {
    const otherPage = await other.newPage();
    await signUpThroughApi(otherPage.request);
    await otherPage.goto("/domains");
    await otherPage.getByLabel("Domain name").fill(DOMAIN);
    await otherPage.getByRole("button", { name: "Add domain" }).click();
    await expect(otherPage.getByText("This domain is already verified by another account.")).toBeVisible();
    await expect(otherPage.getByRole("heading", { name: "No domains yet" })).toBeVisible();
    const refused = await otherPage.request.post(`${DEFAULT_SERVER.url}/api/email-callbacks`, {
      headers: { Origin: DEFAULT_SERVER.url },
      data: { domain: DOMAIN, username: "sales", webhookUrl: "https://hooks.example.com/incoming", allowedOrigins: [] },
    });
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("email_callback.invalid_domain");
    // Its route box sees none of the first account's addresses.
    await otherPage.getByLabel("Address", { exact: true }).fill(`support@${DOMAIN}`);
    await otherPage.getByRole("button", { name: "Check", exact: true }).click();
    await expect(otherPage.locator("output")).toHaveText(
      `Mail to support@${DOMAIN} does not reach you: its domain is not one of your domains.`,
    );
  } finally {
    await other.close();
  }
});
