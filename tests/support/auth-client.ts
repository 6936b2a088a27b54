// Drives a better-auth instance through its HTTP handler, as the browser would, keeping cookies.

import { CLIENT_IP_HEADER } from "@/modules/auth/auth.constants";
import type { Auth } from "@/modules/auth/auth.server";

export const TEST_BASE_URL = "http://localhost:3000";

export function createAuthTestClient(auth: Auth, { ip = "203.0.113.7" }: { ip?: string } = {}) {
  const cookies = new Map<string, string>();

  function rememberCookies(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const [name = "", ...value] = pair.split("=");
      if (value.join("=") === "" || /max-age=0/i.test(cookie)) cookies.delete(name);
      else cookies.set(name, value.join("="));
    }
  }

  async function call(pathOrUrl: string, { method = "GET", body }: { method?: string; body?: unknown } = {}) {
    const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${TEST_BASE_URL}/api/auth${pathOrUrl}`;
    const headers = new Headers({ Origin: TEST_BASE_URL, [CLIENT_IP_HEADER]: ip });
    if (body !== undefined) headers.set("Content-Type", "application/json");
    if (cookies.size > 0) headers.set("Cookie", cookieHeader());
    const response = await auth.handler(
      new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    rememberCookies(response);
    return response;
  }

  function cookieHeader() {
    return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  return { call, cookieHeader, clearCookies: () => cookies.clear() };
}
