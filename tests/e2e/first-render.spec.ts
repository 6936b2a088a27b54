// The signed-in pages' first render carries their content (docs/architecture.md: The first render):
// the address list, an inbox, a mail's page and the Domains page are read on the server for the session, so the
// document itself shows them. Checked with the browser's JavaScript off: what shows is the
// document alone, before any script could fetch anything.
import { expect, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { createEmailCallbackThroughApi } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER, E2E_SMTP_PORT } from "./support/servers";

test.use({ javaScriptEnabled: false });

async function sendMail(to: string, subject: string) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: "Bob <bob@example.org>", to, subject, text: `Words of ${subject}` });
  } finally {
    transport.close();
  }
}

test("the address list, an inbox (its view from the URL) and a mail's page show their content without any script", async ({
  page,
}) => {
  await signUpThroughApi(page.request);
  const stamp = Date.now();
  const first = await createEmailCallbackThroughApi(page.request, `first-render-${stamp}`);
  const second = await createEmailCallbackThroughApi(page.request, `first-render-b-${stamp}`);
  const subjects = [`Invoice ${stamp}`, `Receipt ${stamp}`];
  for (const subject of subjects) await sendMail(first.address, subject);
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/email-callbacks/${first.id}/processings`);
      return ((await response.json()) as { emailProcessingsCount: number }).emailProcessingsCount;
    })
    .toBe(2);

  await page.goto("/email-callbacks");
  await expect(page.getByText(first.address)).toBeVisible();
  await expect(page.getByText(second.address)).toBeVisible();
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);

  await page.goto(`/email-callbacks/${first.id}/inbox`);
  await expect(page.getByRole("heading", { level: 1, name: first.address })).toBeVisible();
  for (const subject of subjects) await expect(page.getByRole("link", { name: subject })).toBeVisible();

  // The inbox's view is read from the URL on the server as in the browser: a search shows its match only.
  await page.goto(`/email-callbacks/${first.id}/inbox?q=${encodeURIComponent(subjects[1]!)}`);
  await expect(page.getByRole("link", { name: subjects[1] })).toBeVisible();
  await expect(page.getByRole("link", { name: subjects[0] })).toHaveCount(0);

  const mailPath = await page.getByRole("link", { name: subjects[1] }).getAttribute("href");
  await page.goto(mailPath!);
  await expect(page.getByText(`Words of ${subjects[1]}`)).toBeVisible();
});

test("the Domains page shows the user's domains and their records without any script", async ({ page }) => {
  await signUpThroughApi(page.request);
  const name = `first-render-${Date.now()}.example.org`;
  const response = await page.request.post("/api/domains", { headers: { Origin: DEFAULT_SERVER.url }, data: { name } });
  expect(response.status()).toBe(201);
  await page.goto("/domains");
  await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(`_hookmail.${name}`)).toBeVisible();
});

test("another user's address shows nothing of it in the first render", async ({ page, browser }) => {
  const owner = await browser.newContext();
  try {
    await signUpThroughApi(owner.request);
    const theirs = await createEmailCallbackThroughApi(owner.request, `first-render-theirs-${Date.now()}`);
    await signUpThroughApi(page.request);
    await page.goto(`/email-callbacks/${theirs.id}/inbox`);
    await expect(page.getByText(theirs.address)).toHaveCount(0);
  } finally {
    await owner.close();
  }
});
