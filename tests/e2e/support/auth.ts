// Test helpers that sign a user up and in through the auth API (not the UI), sharing the
// browser context's cookies.

import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { DEFAULT_SERVER } from "./servers";

export async function signUpThroughApi(request: APIRequestContext, serverUrl = DEFAULT_SERVER.url) {
  const email = `user-${randomBytes(4).toString("hex")}@example.com`;
  const password = "correct-horse-battery";
  const response = await request.post(`${serverUrl}/api/auth/sign-up/email`, {
    headers: { Origin: serverUrl },
    data: { email, password, name: "Test User", callbackURL: "/" },
  });
  if (!response.ok()) throw new Error(`sign-up failed: ${response.status()} ${await response.text()}`);
  return { email, password };
}
