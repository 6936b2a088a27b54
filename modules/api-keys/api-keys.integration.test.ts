// The API keys routes and Bearer authentication, through the route handlers, on a fresh database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as deleteApiKeyRoute } from "@/app/api/api-keys/[apiKeyId]/route";
import { POST as createApiKeyRoute, GET as listApiKeysRoute } from "@/app/api/api-keys/route";
import { GET as listEmailCallbacksRoute } from "@/app/api/email-callbacks/route";
import { GET as getMeRoute } from "@/app/api/users/me/route";
import type { Auth } from "@/modules/auth/auth.server";
import type { Database } from "@/modules/db/db";
import { createId } from "@/modules/shared/ids";
import { createAuthTestClient, TEST_BASE_URL } from "@/tests/support/auth-client";
import { startRouteTestApp } from "@/tests/support/route-test-app";
import { MAX_API_KEYS_PER_USER } from "./api-keys.constants";
import { generateApiKeyToken, getApiKeyDisplayPrefix, hashApiKeyToken } from "./api-keys.models";

type Headers = Record<string, string>;

let database: Database;
let auth: Auth;
const noParams = { params: Promise.resolve({}) };

beforeAll(async () => {
  ({ database, auth } = await startRouteTestApp());
});
afterAll(() => database.close());

/** Signs up a new user and answers their id and session cookie header. */
async function signUp(email: string): Promise<{ userId: string; session: Headers }> {
  const client = createAuthTestClient(auth);
  const response = await client.call("/sign-up/email", {
    method: "POST",
    body: { email, password: "correct-horse-battery", name: "Key Holder" },
  });
  expect(response.status).toBe(200);
  const user = await database.prisma.user.findUniqueOrThrow({ where: { email } });
  return {
    userId: user.id,
    session: { Cookie: client.cookieHeader(), Origin: TEST_BASE_URL, "Content-Type": "application/json" },
  };
}

const bearer = (token: string): Headers => ({ Authorization: `Bearer ${token}` });

const listKeys = (headers: Headers) => listApiKeysRoute(new Request(`${TEST_BASE_URL}/api/api-keys`, { headers }), noParams);

const createKey = (body: unknown, headers: Headers) =>
  createApiKeyRoute(
    new Request(`${TEST_BASE_URL}/api/api-keys`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
    noParams,
  );

const deleteKey = (apiKeyId: string, headers: Headers) =>
  deleteApiKeyRoute(new Request(`${TEST_BASE_URL}/api/api-keys/${apiKeyId}`, { method: "DELETE", headers }), {
    params: Promise.resolve({ apiKeyId }),
  });

const getMe = (headers: Headers) => getMeRoute(new Request(`${TEST_BASE_URL}/api/users/me`, { headers }), noParams);

/** A call an API key may make (keys reach /api/email-callbacks only). */
const listAddresses = (headers: Headers) =>
  listEmailCallbacksRoute(new Request(`${TEST_BASE_URL}/api/email-callbacks`, { headers }), noParams);

/** Creates a key through the API and answers its id and token. */
async function createKeyOrFail(session: Headers, name = "CI") {
  const response = await createKey({ name }, session);
  expect(response.status).toBe(201);
  const body = (await response.json()) as { apiKey: { id: string }; token: string };
  return { apiKeyId: body.apiKey.id, token: body.token };
}

/** Stores keys straight in the database, as a user who already made them would have. */
async function seedApiKeys(userId: string, count: number) {
  await database.prisma.apiKey.createMany({
    data: Array.from({ length: count }, (_, index) => {
      const token = generateApiKeyToken();
      return {
        id: createId("apiKey"),
        userId,
        name: `seeded ${index}`,
        prefix: getApiKeyDisplayPrefix(token),
        hashedKey: hashApiKeyToken(token),
      };
    }),
  });
}

describe("an API key's life", () => {
  it("is created with its token shown once, authenticates as its owner, and stops working once deleted", async () => {
    const alice = await signUp("alice@example.com");

    const created = await createKey({ name: "Deploy bot" }, alice.session);
    expect(created.status).toBe(201);
    const { apiKey, token } = await created.json();
    expect(token).toMatch(/^hm_[0-9A-Za-z]{40}$/);
    expect(apiKey).toEqual({
      id: expect.stringMatching(/^ak_[0-9A-Za-z]{22}$/),
      name: "Deploy bot",
      prefix: token.slice(0, 10),
      createdAt: expect.any(String),
      lastUsedAt: null,
    });

    const stored = await database.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(stored.userId).toBe(alice.userId);
    expect(stored.hashedKey).not.toBe(token);
    expect(stored.hashedKey).toBe(hashApiKeyToken(token));
    expect(JSON.stringify(stored)).not.toContain(token.slice(10));

    const listed = await listKeys(alice.session);
    expect(listed.status).toBe(200);
    const listText = await listed.text();
    expect(JSON.parse(listText)).toEqual({ apiKeys: [apiKey] });
    expect(listText).not.toContain(token);
    expect(listText).not.toContain(stored.hashedKey);
    expect(listText).not.toMatch(/hashedKey|token/);

    const me = await listAddresses(bearer(token));
    expect(me.status).toBe(200);
    expect((await me.json()).emailCallbacks).toEqual([]);

    const deleted = await deleteKey(apiKey.id, alice.session);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect(await database.prisma.apiKey.findUnique({ where: { id: apiKey.id } })).toBeNull();

    const afterDelete = await listAddresses(bearer(token));
    expect(afterDelete.status).toBe(401);
    expect((await afterDelete.json()).error.code).toBe("auth.unauthorized");
    expect((await (await listKeys(alice.session)).json()).apiKeys).toEqual([]);
  });

  it("lists only the caller's keys, newest first", async () => {
    const dora = await signUp("dora@example.com");
    const other = await signUp("dora-neighbour@example.com");
    await createKeyOrFail(other.session, "not Dora's");
    const first = await createKeyOrFail(dora.session, "first");
    const second = await createKeyOrFail(dora.session, "second");
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await database.prisma.apiKey.update({ where: { id: first.apiKeyId }, data: { createdAt: aMinuteAgo } });
    const { apiKeys } = await (await listKeys(dora.session)).json();
    expect(apiKeys.map((key: { id: string }) => key.id)).toEqual([second.apiKeyId, first.apiKeyId]);
  });

  it("records its use at most once a minute", async () => {
    const erin = await signUp("erin@example.com");
    const { apiKeyId, token } = await createKeyOrFail(erin.session);
    const readLastUsedAt = async () => (await database.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKeyId } })).lastUsedAt;

    expect((await listAddresses(bearer(token))).status).toBe(200);
    const firstUse = await readLastUsedAt();
    expect(firstUse).toBeInstanceOf(Date);
    expect((await listAddresses(bearer(token))).status).toBe(200);
    expect(await readLastUsedAt()).toEqual(firstUse);

    const twoMinutesAgo = new Date(Date.now() - 2 * 60_000);
    await database.prisma.apiKey.update({ where: { id: apiKeyId }, data: { lastUsedAt: twoMinutesAgo } });
    expect((await listAddresses(bearer(token))).status).toBe(200);
    expect((await readLastUsedAt())!.getTime()).toBeGreaterThan(twoMinutesAgo.getTime() + 60_000);
  });

  it("accepts the Bearer scheme in any case", async () => {
    const fay = await signUp("fay@example.com");
    const { token } = await createKeyOrFail(fay.session);
    expect((await listAddresses({ Authorization: `bearer ${token}` })).status).toBe(200);
    expect((await listAddresses({ Authorization: `BEARER ${token}` })).status).toBe(200);
  });
});

describe("POST /api/api-keys name", () => {
  let session: Headers;
  beforeAll(async () => {
    ({ session } = await signUp("namer@example.com"));
  });

  const expectNameError = async (response: Response, code: string) => {
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error).toMatchObject({ code: "request.invalid_body", fields: [{ path: "name", code }] });
  };

  it("is required: empty, blank, missing or not text answers 400 on field name", async () => {
    await expectNameError(await createKey({ name: "" }, session), "too_small");
    await expectNameError(await createKey({ name: "   \t " }, session), "too_small");
    await expectNameError(await createKey({}, session), "invalid_type");
    await expectNameError(await createKey({ name: 42 }, session), "invalid_type");
  });

  it("is at most 128 characters once trimmed", async () => {
    await expectNameError(await createKey({ name: "x".repeat(129) }, session), "too_big");
    const atLimit = await createKey({ name: "x".repeat(128) }, session);
    expect(atLimit.status).toBe(201);
    const padded = await createKey({ name: `  ${"y".repeat(128)}  ` }, session);
    expect(padded.status).toBe(201);
    expect((await padded.json()).apiKey.name).toBe("y".repeat(128));
  });

  it("is stored trimmed", async () => {
    const response = await createKey({ name: "  Staging server  " }, session);
    expect(response.status).toBe(201);
    const { apiKey } = await response.json();
    expect(apiKey.name).toBe("Staging server");
    expect((await database.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).name).toBe("Staging server");
  });

  it("refuses a body that is not JSON", async () => {
    const response = await createApiKeyRoute(
      new Request(`${TEST_BASE_URL}/api/api-keys`, { method: "POST", headers: session, body: "{nope" }),
      noParams,
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("request.invalid_body");
  });
});

describe("the limit of 50 keys per user", () => {
  it("refuses the 51st key with 403 api_keys.limit_reached, and frees a slot on deletion", async () => {
    const gus = await signUp("gus@example.com");
    await seedApiKeys(gus.userId, MAX_API_KEYS_PER_USER - 1);
    const fiftieth = await createKeyOrFail(gus.session, "fiftieth");

    const refused = await createKey({ name: "fifty-first" }, gus.session);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe("api_keys.limit_reached");
    expect(await database.prisma.apiKey.count({ where: { userId: gus.userId } })).toBe(MAX_API_KEYS_PER_USER);

    expect((await deleteKey(fiftieth.apiKeyId, gus.session)).status).toBe(204);
    expect((await createKey({ name: "replacement" }, gus.session)).status).toBe(201);
  });

  it("counts each user's keys apart", async () => {
    const full = await signUp("full@example.com");
    const fresh = await signUp("fresh@example.com");
    await seedApiKeys(full.userId, MAX_API_KEYS_PER_USER);
    expect((await createKey({ name: "mine" }, fresh.session)).status).toBe(201);
  });

  it("is not passed by concurrent creations", async () => {
    const hal = await signUp("hal@example.com");
    await seedApiKeys(hal.userId, MAX_API_KEYS_PER_USER - 3);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) => createKey({ name: `race ${index}` }, hal.session)),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 403, 403, 403, 403, 403]);
    expect(await database.prisma.apiKey.count({ where: { userId: hal.userId } })).toBe(MAX_API_KEYS_PER_USER);
  });
});

describe("another user's key", () => {
  it("cannot be deleted: 404 api_key.not_found, and the key keeps working", async () => {
    const owner = await signUp("owner@example.com");
    const intruder = await signUp("intruder@example.com");
    const { apiKeyId, token } = await createKeyOrFail(owner.session);

    const response = await deleteKey(apiKeyId, intruder.session);
    expect(response.status).toBe(404);
    expect((await response.json()).error).toEqual({ code: "api_key.not_found", message: "The API key was not found." });

    expect((await listAddresses(bearer(token))).status).toBe(200);
  });

  it("answers an unknown key id like another user's", async () => {
    const ivy = await signUp("ivy@example.com");
    const response = await deleteKey("ak_doesNotExist0000000000", ivy.session);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("api_key.not_found");
  });
});

describe("who may call /api/api-keys", () => {
  let session: Headers;
  let apiKeyId: string;
  let token: string;
  beforeAll(async () => {
    ({ session } = await signUp("jo@example.com"));
    ({ apiKeyId, token } = await createKeyOrFail(session));
  });

  it("refuses an API key caller with 403 api_keys.session_required, changing nothing", async () => {
    const responses = [
      await listKeys(bearer(token)),
      await createKey({ name: "by key" }, bearer(token)),
      await deleteKey(apiKeyId, bearer(token)),
    ];
    for (const response of responses) {
      expect(response.status).toBe(403);
      expect((await response.json()).error.code).toBe("api_keys.session_required");
    }
    expect(await database.prisma.apiKey.findUnique({ where: { id: apiKeyId } })).not.toBeNull();
    expect((await (await listKeys(session)).json()).apiKeys).toHaveLength(1);
  });

  it("answers 401 auth.unauthorized with no caller", async () => {
    for (const response of [await listKeys({}), await createKey({ name: "anon" }, {}), await deleteKey(apiKeyId, {})]) {
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe("auth.unauthorized");
    }
  });
});

describe("an Authorization header that names no key", () => {
  let session: Headers;
  beforeAll(async () => {
    ({ session } = await signUp("kim@example.com"));
    expect((await getMe(session)).status).toBe(200);
  });

  it.each([
    ["a malformed bearer", "Bearer not-a-key"],
    ["an empty bearer", "Bearer "],
    ["an unknown hm_ token", `Bearer hm_${"A".repeat(40)}`],
    ["a token one character short", `Bearer hm_${"A".repeat(39)}`],
    ["another scheme", "Basic a2ltOnBhc3N3b3Jk"],
  ])("answers 401 for %s even with a valid session cookie", async (_, authorization) => {
    const response = await getMe({ ...session, Authorization: authorization });
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("auth.unauthorized");
  });
});
