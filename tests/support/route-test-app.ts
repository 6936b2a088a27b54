// An app for route-handler integration tests: a fresh migrated database, the process's services
// made for it (config, auth, the test dispatcher) and installed, users signed up through
// better-auth, and a helper calling route handlers.
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import * as apiKeys from "@/app/api/api-keys/route";
import { type Auth, createAuth } from "@/modules/auth/auth.server";
import { type Config, loadConfig } from "@/modules/config/config";
import type { Database } from "@/modules/db/db";
import { setServices } from "@/modules/server/services";
import { createAuthTestClient, TEST_BASE_URL } from "./auth-client";
import { testDispatcher } from "./recording-dispatcher";
import { createTestDatabase } from "./test-database";
import { installTestServices } from "./test-services";

export type RouteHandler<Params> = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;

export type TestUser = { userId: string; email: string; headers: Record<string, string> };

export async function startRouteTestApp(environment: Record<string, string> = {}) {
  const config: Config = loadConfig({
    DATA_DIR: path.join(os.tmpdir(), "hookmail-route-tests"),
    AUTH_SECRET: "route-test-secret-route-test-secret-route",
    AUTH_RATE_LIMIT_ENABLED: "false",
    EMAIL_DOMAINS: "hookmail.test,example.org",
    // Authentication has tests of its own with a DNS server on loopback; no real resolver is asked.
    MAIL_AUTH_CHECKS: "false",
    ...environment,
  });
  const database: Database = await createTestDatabase();
  const auth: Auth = createAuth({ config, prisma: database.prisma, mailer: { send: async () => undefined } });
  const services = installTestServices({ config, database, auth, dispatcher: testDispatcher.dispatcher });
  let userCounter = 0;

  return {
    config,
    database,
    auth,
    services,
    async signUp(label = "user"): Promise<TestUser> {
      userCounter += 1;
      const email = `${label}-${userCounter}-${Date.now()}@example.com`;
      const client = createAuthTestClient(auth);
      const response = await client.call("/sign-up/email", {
        method: "POST",
        body: { email, password: "correct-horse-battery", name: `Test ${label}` },
      });
      if (response.status !== 200) throw new Error(`sign-up failed with ${response.status}`);
      const { user } = (await response.json()) as { user: { id: string } };
      return { userId: user.id, email, headers: sameOriginJsonHeaders(client.cookieHeader(), config.baseUrl) };
    },
    /** Creates an API key of `user` through the API; answers its id and the headers that use it. */
    async createApiKey(user: TestUser, name = "test"): Promise<{ id: string; headers: { Authorization: string } }> {
      const response = await this.call(apiKeys.POST, {
        path: "/api/api-keys",
        method: "POST",
        body: { name },
        headers: user.headers,
      });
      if (response.status !== 201) throw new Error(`creating an API key failed with ${response.status}`);
      return { id: response.body?.apiKey.id, headers: { Authorization: `Bearer ${response.body?.token}` } };
    },
    /** The two users most access tests need, each with an API key named `keyName`: the owner and a stranger. */
    async signUpOwnerAndStranger(keyName: string) {
      const owner = await this.signUp("owner");
      const stranger = await this.signUp("stranger");
      const ownerKey = (await this.createApiKey(owner, keyName)).headers;
      const strangerKey = (await this.createApiKey(stranger, keyName)).headers;
      return { owner, stranger, ownerKey, strangerKey };
    },
    async call<Params>(
      handler: RouteHandler<Params>,
      {
        path: requestPath,
        method = "GET",
        body,
        headers = {},
        params,
      }: { path: string; method?: string; body?: unknown; headers?: Record<string, string>; params?: Params },
    ) {
      const request = new Request(`${TEST_BASE_URL}${requestPath}`, {
        method,
        headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const response = await handler(request, { params: Promise.resolve((params ?? {}) as Params) });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: text ? (JSON.parse(text) as Record<string, any>) : null,
      };
    },
    close: async () => {
      setServices(undefined);
      await services.close();
      await database.close();
    },
  };
}

/**
 * What the app's own pages send with the session cookie: their origin (BASE_URL's) and JSON, which
 * every cookie write needs (docs/security.md).
 */
export function sameOriginJsonHeaders(cookie: string, baseUrl = TEST_BASE_URL): Record<string, string> {
  return { Cookie: cookie, Origin: new URL(baseUrl).origin, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" };
}

export type RouteTestApp = Awaited<ReturnType<typeof startRouteTestApp>>;

export type OwnerAndStranger = Awaited<ReturnType<RouteTestApp["signUpOwnerAndStranger"]>>;

/**
 * What a file of access tests starts with: before its tests, a route test app (started with
 * `environment`) and its owner and stranger, each with an API key named `keyName`; after them, the
 * app closed. The fields are set once the file's tests run.
 */
export function setUpOwnerAndStranger(keyName: string, environment: Record<string, string> = {}) {
  const suite = {} as { app: RouteTestApp } & OwnerAndStranger;
  beforeAll(async () => {
    suite.app = await startRouteTestApp(environment);
    Object.assign(suite, await suite.app.signUpOwnerAndStranger(keyName));
  });
  afterAll(() => suite.app?.close());
  return suite;
}
