import { expect, test } from "@playwright/test";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER } from "./support/servers";

test("the webhook format page: opened from the account menu, headers, snippets in tabs, and the public JSON Schema", async ({
  page,
  playwright,
}) => {
  await signUpThroughApi(page.request);
  await page.goto("/");
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Webhook format" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole("heading", { name: "Webhook format", level: 1 })).toBeVisible();

  const headers = page.getByRole("table");
  await expect(headers.getByRole("columnheader", { name: "Header" })).toBeVisible();
  for (const name of ["Content-Type", "User-Agent", "webhook-id", "webhook-timestamp", "webhook-signature"]) {
    await expect(headers.getByRole("cell", { name, exact: true })).toBeVisible();
  }
  await expect(page.getByText('"type": "email.received"')).toBeVisible();

  await expect(page.getByRole("tab", { name: "Node.js" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toContainText('import { Webhook } from "standardwebhooks";');
  await page.getByRole("tab", { name: "Python" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("def verify_hookmail(secret: str, body: bytes, headers) -> bool:");
  await expect(page.getByRole("tabpanel")).not.toContainText("standardwebhooks");
  await expect(page.getByRole("button", { name: "Copy the Python code" })).toBeVisible();

  await expect(page.getByRole("link", { name: "JSON Schema" })).toHaveAttribute("href", "/api/webhooks/schema");
  // Public: fetched without the session's cookies.
  const anonymous = await playwright.request.newContext({ baseURL: DEFAULT_SERVER.url });
  const response = await anonymous.get("/api/webhooks/schema");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/schema+json");
  const schema = (await response.json()) as { $id: string; title: string };
  expect(schema.$id).toBe("https://hookmail.dev/schemas/webhook-payload-v1.json");
  await anonymous.dispose();
});
