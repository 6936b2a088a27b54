import { expect, type Page, test } from "@playwright/test";
import { createEmailCallbackThroughApi, seedProcessings } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { routeBillingDisabled } from "./support/billing";
import { DEFAULT_SERVER } from "./support/servers";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("an address from creation to deletion: random name, copy, list, disable, enable, settings, delete", async ({ page }) => {
  await signUpThroughApi(page.request);
  await page.goto("/email-callbacks");
  await expect(page.getByText("No emails yet")).toBeVisible();
  await page.getByRole("link", { name: "Create email" }).first().click();
  await expect(page).toHaveURL(/\/email-callbacks\/create$/);
  await expect(page.getByRole("heading", { name: "New email" })).toBeVisible();

  await page.getByRole("button", { name: "Generate a random username" }).click();
  const username = await page.getByLabel("Username", { exact: true }).inputValue();
  expect(username).toMatch(/^[a-z]+-[a-z]+-\d{1,3}$/);
  await page.getByLabel("Webhook URL").fill("https://hooks.example.com/incoming");
  await page.getByRole("button", { name: "Generate a random secret" }).click();
  expect(await page.getByLabel("Webhook secret").inputValue()).toMatch(/^[A-Za-z0-9]{42}$/);
  await page.getByRole("button", { name: "Create email" }).click();

  const address = `${username}@hookmail.test`;
  await expect(page.getByText("Your email is ready")).toBeVisible();
  await page.getByRole("button", { name: "Copy email address" }).click();
  await expect(page.getByText("Email address copied to clipboard")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);

  await page.getByRole("link", { name: "Back to emails" }).click();
  await expect(page).toHaveURL(/\/email-callbacks$/);
  await expect(page.getByRole("link", { name: address })).toBeVisible();
  await expect(page.getByText("https://hooks.example.com/incoming")).toBeVisible();

  await page.getByRole("button", { name: `Actions for ${address}` }).click();
  await page.getByRole("menuitem", { name: "Disable" }).click();
  await expect(page.getByText("Email disabled", { exact: true })).toBeVisible();
  await expect(page.getByText("Disabled", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: `Actions for ${address}` }).click();
  await page.getByRole("menuitem", { name: "Enable" }).click();
  await expect(page.getByText("Email enabled", { exact: true })).toBeVisible();
  await expect(page.getByText("Disabled", { exact: true })).toBeHidden();

  await page.getByRole("button", { name: `Actions for ${address}` }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/email-callbacks\/ecb_[A-Za-z0-9]+\/settings$/);
  const save = page.getByRole("button", { name: "Save changes" });
  await expect(save).toBeDisabled();
  await page.getByLabel("Webhook URL").fill("https://hooks.example.com/changed");
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText("Email settings updated successfully")).toBeVisible();
  await expect(save).toBeDisabled();
  await page.reload();
  await expect(page.getByLabel("Webhook URL")).toHaveValue("https://hooks.example.com/changed");

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByText("Are you sure you want to delete this email? This action cannot be undone.")).toBeVisible();
  await page.getByRole("button", { name: "Delete email" }).click();
  await expect(page).toHaveURL(/\/email-callbacks$/);
  await expect(page.getByRole("link", { name: address })).toBeHidden();
});

/** `count` addresses made through the API, as fast as it takes them. */
async function createAddresses(page: Page, count: number) {
  const stem = `limit-${Date.now()}`;
  for (let index = 0; index < count; index += 1) await createEmailCallbackThroughApi(page.request, `${stem}-${index}`);
}

test("without billing, the list and the New email page say how many of the plan's 10 addresses are used, and at 10 Create is disabled with no upgrade offered", async ({
  page,
}) => {
  await routeBillingDisabled(page);
  await signUpThroughApi(page.request);
  await createAddresses(page, 2);
  await page.goto("/email-callbacks");
  await expect(page.getByText("2 of 10 emails", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Create email" }).click();
  await expect(page.getByText("2 of 10 emails", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create email" })).toBeEnabled();

  await createAddresses(page, 8);
  await page.goto("/email-callbacks");
  await expect(page.getByText("10 of 10 emails", { exact: true })).toBeVisible();
  const reached = "You have created the 10 emails your plan allows. Delete one to create another.";
  await expect(page.getByText(reached)).toBeVisible();
  await expect(page.getByRole("link", { name: "Create email" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create email" })).toBeDisabled();

  await page.goto("/email-callbacks/create");
  await expect(page.getByText(reached)).toBeVisible();
  await expect(page.getByRole("button", { name: "Create email" })).toBeDisabled();
  await expect(page.getByRole("main").getByText(/upgrade/i)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Upgrade to pro" })).toHaveCount(0);
});

test("with billing on, a free user at the limit is told before filling the form, with the Upgrade button beside the message", async ({
  page,
}) => {
  await signUpThroughApi(page.request);
  await createAddresses(page, 10);
  await page.goto("/email-callbacks/create");
  await expect(page.getByText("10 of 10 emails", { exact: true })).toBeVisible();
  await expect(
    page.getByText("You have created the 10 emails your plan allows. Delete one, or upgrade to pro to create more."),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Create email" })).toBeDisabled();
  await page.getByRole("main").getByRole("button", { name: "Upgrade to pro" }).click();
  await expect(page.getByRole("dialog", { name: "Upgrade to pro" })).toBeVisible();
});

test("in French, the count and the limit message are translated", async ({ page, context }) => {
  await context.addCookies([{ name: "hookmail-locale", value: "fr", url: DEFAULT_SERVER.url }]);
  await routeBillingDisabled(page);
  await signUpThroughApi(page.request);
  await createAddresses(page, 1);
  await page.goto("/email-callbacks");
  await expect(page.getByText("1 adresse sur 10", { exact: true })).toBeVisible();
  await createAddresses(page, 9);
  await page.goto("/email-callbacks/create");
  await expect(page.getByText("10 adresses sur 10", { exact: true })).toBeVisible();
  await expect(
    page.getByText("Vous avez créé les 10 adresses que permet votre plan. Supprimez-en une pour en créer une autre."),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Créer l'adresse" })).toBeDisabled();
});

test("a taken or reserved username shows its error under the field", async ({ page }) => {
  await signUpThroughApi(page.request);
  const taken = `taken-${Date.now()}`;
  await createEmailCallbackThroughApi(page.request, taken);
  await page.goto("/email-callbacks/create");
  await page.getByLabel("Webhook URL").fill("https://hooks.example.com/incoming");
  await page.getByLabel("Username", { exact: true }).fill(taken);
  await page.getByRole("button", { name: "Create email" }).click();
  await expect(page.getByText("An email with this username already exists")).toBeVisible();
  await page.getByLabel("Username", { exact: true }).fill("postmaster");
  await page.getByRole("button", { name: "Create email" }).click();
  await expect(page.getByText("This username is not allowed, please choose a different one")).toBeVisible();
});

test("the inbox pages 40 processings: 15 per page on 3 pages, one page at 50 rows", async ({ page }) => {
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `inbox-${Date.now()}`);
  await seedProcessings(callback.id, 40);
  await page.goto(`/email-callbacks/${callback.id}`);
  await expect(page).toHaveURL(new RegExp(`/email-callbacks/${callback.id}/inbox$`));

  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(15);
  await expect(rows.first()).toContainText("Seeded message 40");
  await expect(page.getByText("Page 1 of 3")).toBeVisible();
  await page.getByRole("button", { name: "Go to next page" }).click();
  await expect(page.getByText("Page 2 of 3")).toBeVisible();
  await page.getByRole("button", { name: "Go to last page" }).click();
  await expect(page.getByText("Page 3 of 3")).toBeVisible();
  await expect(rows).toHaveCount(10);
  await expect(rows.last()).toContainText("Seeded message 1");
  await page.getByRole("button", { name: "Go to first page" }).click();
  await expect(page.getByText("Page 1 of 3")).toBeVisible();

  await page.getByRole("combobox", { name: "Rows per page" }).selectOption({ label: "50" });
  await expect(rows).toHaveCount(40);
  await expect(page.getByText(/Page \d of \d/)).toBeHidden();
});

test("an API key: created, shown once, used from outside the browser, deleted, refused at once", async ({ page, playwright }) => {
  await signUpThroughApi(page.request);
  await createEmailCallbackThroughApi(page.request, `keyed-${Date.now()}`);
  await page.goto("/api-keys");
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await page.getByRole("link", { name: "Create API key" }).first().click();
  await page.getByLabel("Name").fill("CI script");
  await page.getByRole("button", { name: "Create API key" }).click();
  await expect(page.getByText("Your API key has been created")).toBeVisible();
  const token = await page.getByLabel("Your new API key").inputValue();
  expect(token).toMatch(/^hm_[0-9A-Za-z]{40}$/);
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();

  const outside = await playwright.request.newContext({ baseURL: DEFAULT_SERVER.url });
  const listed = await outside.get("/api/email-callbacks", { headers: { Authorization: `Bearer ${token}` } });
  expect(listed.status()).toBe(200);
  expect((await listed.json()).emailCallbacks).toHaveLength(1);

  await page.getByRole("link", { name: "Back to API keys" }).click();
  await expect(page.getByText("CI script")).toBeVisible();
  await expect(page.getByText(`${token.slice(0, 10)}…`)).toBeVisible();
  await expect(page.getByText(token)).toBeHidden();
  await page.getByRole("button", { name: "Delete API key CI script" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete API key" }).click();
  await expect(page.getByText("API key deleted successfully")).toBeVisible();

  const refused = await outside.get("/api/email-callbacks", { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
  await outside.dispose();
});

test("the Advanced options: attachments by link, DMARC required and a spam threshold, saved and shown again", async ({
  page,
}) => {
  await signUpThroughApi(page.request);
  await page.goto("/email-callbacks/create");
  await page.getByRole("button", { name: "Generate a random username" }).click();
  await page.getByLabel("Webhook URL").fill("https://hooks.example.com/incoming");
  await page.getByText("Advanced", { exact: true }).click();
  await page.getByRole("group", { name: "Attachments" }).getByRole("radio", { name: "As download links" }).check();
  await page
    .getByRole("group", { name: "Sender authentication" })
    .getByRole("radio", { name: "Deliver only mail that passes DMARC" })
    .check();
  await page.getByLabel("Spam threshold").fill("abc");
  await page.getByRole("button", { name: "Create email" }).click();
  await expect(page.getByText("Enter a number from 0 to 1000, or leave empty")).toBeVisible();
  await page.getByLabel("Spam threshold").fill("7.5");
  await page.getByRole("button", { name: "Create email" }).click();
  await expect(page.getByText("Your email is ready")).toBeVisible();

  await page.getByRole("link", { name: "Back to emails" }).click();
  await page.getByRole("button", { name: /^Actions for / }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  // An address with options of its own shows its Advanced section open.
  await expect(page.getByRole("radio", { name: "As download links" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "Deliver only mail that passes DMARC" })).toBeChecked();
  await expect(page.getByLabel("Spam threshold")).toHaveValue("7.5");
  await page.getByLabel("Spam threshold").fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Email settings updated successfully")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Spam threshold")).toHaveValue("");
  await expect(page.getByRole("radio", { name: "As download links" })).toBeChecked();
});

test("a generated webhook secret can be copied from the form, and the created view shows it to copy once", async ({ page }) => {
  await signUpThroughApi(page.request);
  await page.goto("/email-callbacks/create");
  await page.getByRole("button", { name: "Generate a random username" }).click();
  await page.getByLabel("Webhook URL").fill("https://hooks.example.com/incoming");
  await page.getByRole("button", { name: "Generate a random secret" }).click();
  const secret = await page.getByLabel("Webhook secret").inputValue();
  await page.getByRole("button", { name: "Copy the secret" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  await page.getByRole("button", { name: "Create email" }).click();
  await expect(page.getByText("Your email is ready")).toBeVisible();
  await expect(page.getByLabel("Webhook secret")).toHaveValue(secret);
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await page.getByRole("button", { name: "Copy the secret" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
});
