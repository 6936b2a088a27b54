// The domain calls through their route handlers on a fresh database: the owner's rules (another
// user's domain is not found, API keys work), the checks of POST /api/domains in their order, the
// plan's limit, a name held by another account, and a domain that addresses still use.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as item from "@/app/api/domains/[domainId]/route";
import * as verify from "@/app/api/domains/[domainId]/verify/route";
import * as collection from "@/app/api/domains/route";
import { createId } from "@/modules/shared/ids";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";
import { seedDatabase } from "@/tests/support/seed";

type Headers = Record<string, string>;

let app: RouteTestApp;

beforeAll(async () => {
  // No DNS server answers here: the verification has tests of its own with one on loopback.
  app = await startRouteTestApp({ BASE_URL: "https://app.hookmail.example", MX_HOSTNAME: "mx.hookmail.example" });
});
afterAll(() => app.close());

const addDomain = (name: unknown, headers: Headers) =>
  app.call(collection.POST, { path: "/api/domains", method: "POST", body: { name }, headers });
const listDomains = (headers: Headers) => app.call(collection.GET, { path: "/api/domains", headers });
const getDomain = (domainId: string, headers: Headers) =>
  app.call(item.GET, { path: `/api/domains/${domainId}`, headers, params: { domainId } });
const deleteDomain = (domainId: string, headers: Headers) =>
  app.call(item.DELETE, { path: `/api/domains/${domainId}`, method: "DELETE", headers, params: { domainId } });
const verifyDomain = (domainId: string, headers: Headers) =>
  app.call(verify.POST, { path: `/api/domains/${domainId}/verify`, method: "POST", headers, params: { domainId } });

async function addDomainOrFail(name: string, user: TestUser): Promise<string> {
  const response = await addDomain(name, user.headers);
  expect(response.status).toBe(201);
  return response.body?.domain.id as string;
}

const setPlan = (user: TestUser, planId: string) =>
  app.database.prisma.user.update({ where: { id: user.userId }, data: { planId } });

/** Another account holding `name`, as a passed check leaves it. */
async function seedVerifiedDomainOfAnotherAccount(name: string) {
  const { users } = await seedDatabase(app.database, { users: [{}] });
  await app.database.prisma.domain.create({
    data: { id: createId("domain"), userId: users[0]!.id, name, token: "elsewhere", status: "verified", verifiedAt: new Date() },
  });
}

describe("POST /api/domains", () => {
  it("adds a pending domain with a token of its own and the two records to set", async () => {
    const user = await app.signUp("adder");
    const response = await addDomain("Acme.EXAMPLE.", user.headers);
    expect(response.status).toBe(201);
    const { domain } = response.body!;
    const stored = await app.database.prisma.domain.findUniqueOrThrow({ where: { id: domain.id } });
    expect(stored).toMatchObject({ userId: user.userId, name: "acme.example", status: "pending" });
    expect(stored.token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(domain).toEqual({
      id: expect.stringMatching(/^dom_[0-9A-Za-z]{22}$/),
      name: "acme.example",
      status: "pending",
      records: [
        { type: "TXT", name: "_hookmail.acme.example", value: `hookmail-verification=${stored.token}` },
        { type: "MX", name: "acme.example", value: "mx.hookmail.example", priority: 10 },
      ],
      verifiedAt: null,
      lastCheckedAt: null,
      lastCheckError: null,
      createdAt: stored.createdAt.toISOString(),
    });
  });

  it("stores an IDN as its A-label", async () => {
    const user = await app.signUp("idn");
    const response = await addDomain("bücher.example", user.headers);
    expect(response.status).toBe(201);
    expect(response.body?.domain.name).toBe("xn--bcher-kva.example");
  });

  it("gives each account its own token for the same name", async () => {
    const [first, second] = [await app.signUp("first"), await app.signUp("second")];
    await addDomainOrFail("shared-claim.example", first);
    await addDomainOrFail("shared-claim.example", second);
    const tokens = await app.database.prisma.domain.findMany({
      where: { name: "shared-claim.example" },
      select: { token: true },
    });
    expect(new Set(tokens.map(({ token }) => token)).size).toBe(2);
  });

  it.each(["exa mple.org", "192.0.2.1", "[2001:db8::1]", "localhost", "example", `${"a".repeat(64)}.example`])(
    "answers 400 domain.invalid for %s",
    async (name) => {
      const user = await app.signUp("invalid");
      const response = await addDomain(name, user.headers);
      expect(response.status).toBe(400);
      expect(response.body?.error).toMatchObject({ code: "domain.invalid", fields: [{ path: "name" }] });
    },
  );

  it("answers 400 request.invalid_body without a name", async () => {
    const user = await app.signUp("nameless");
    const response = await app.call(collection.POST, { path: "/api/domains", method: "POST", body: {}, headers: user.headers });
    expect(response.status).toBe(400);
    expect(response.body?.error.code).toBe("request.invalid_body");
  });

  it.each(["hookmail.test", "mail.example.org", "mx.hookmail.example", "a.mx.hookmail.example"])(
    "answers 400 domain.reserved for %s (EMAIL_DOMAINS, MX_HOSTNAME and names under them)",
    async (name) => {
      const user = await app.signUp("reserved");
      const response = await addDomain(name, user.headers);
      expect(response.status).toBe(400);
      expect(response.body?.error.code).toBe("domain.reserved");
    },
  );

  it("answers 409 domain.already_exists for a name the account has, however it is typed", async () => {
    const user = await app.signUp("twice");
    await addDomainOrFail("twice.example", user);
    const response = await addDomain("TWICE.example.", user.headers);
    expect(response.status).toBe(409);
    expect(response.body?.error.code).toBe("domain.already_exists");
  });

  it("answers 409 domain.taken for a name another account holds verified", async () => {
    await seedVerifiedDomainOfAnotherAccount("held.example");
    const user = await app.signUp("latecomer");
    const response = await addDomain("held.example", user.headers);
    expect(response.status).toBe(409);
    expect(response.body?.error.code).toBe("domain.taken");
  });

  it("answers 403 domains.limit_reached past the plan's domains: 1 on free, 20 on pro", async () => {
    const user = await app.signUp("limited");
    await addDomainOrFail("one.example", user);
    const refused = await addDomain("two.example", user.headers);
    expect(refused.status).toBe(403);
    expect(refused.body?.error.code).toBe("domains.limit_reached");

    await setPlan(user, "pro");
    for (let index = 2; index <= 20; index += 1) await addDomainOrFail(`pro-${index}.example`, user);
    expect((await addDomain("twenty-one.example", user.headers)).body?.error.code).toBe("domains.limit_reached");
    expect(await app.database.prisma.domain.count({ where: { userId: user.userId } })).toBe(20);
  });

  it("checks in order: invalid, reserved, already_exists, taken, limit", async () => {
    await seedVerifiedDomainOfAnotherAccount("order-held.example");
    const user = await app.signUp("order");
    await addDomainOrFail("order-mine.example", user);
    // At the free plan's limit now: every earlier check still answers first.
    expect((await addDomain("not a name", user.headers)).body?.error.code).toBe("domain.invalid");
    expect((await addDomain("x.hookmail.test", user.headers)).body?.error.code).toBe("domain.reserved");
    expect((await addDomain("order-mine.example", user.headers)).body?.error.code).toBe("domain.already_exists");
    expect((await addDomain("order-held.example", user.headers)).body?.error.code).toBe("domain.taken");
    expect((await addDomain("order-other.example", user.headers)).body?.error.code).toBe("domains.limit_reached");
  });

  it("is not passed by concurrent additions", async () => {
    const user = await app.signUp("racer");
    await setPlan(user, "pro");
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, index) => addDomain(`race-${index}.example`, user.headers)),
    );
    expect(responses.filter(({ status }) => status === 201)).toHaveLength(20);
    expect(responses.filter(({ status }) => status === 403)).toHaveLength(4);
  });
});

describe("GET /api/domains", () => {
  it("lists the caller's domains, newest first, and none of another account's", async () => {
    const [user, neighbour] = [await app.signUp("lister"), await app.signUp("neighbour")];
    await setPlan(user, "pro");
    await addDomainOrFail("neighbour.example", neighbour);
    const older = await addDomainOrFail("older.example", user);
    const newer = await addDomainOrFail("newer.example", user);
    await app.database.prisma.domain.update({ where: { id: older }, data: { createdAt: new Date(Date.now() - 60_000) } });
    const response = await listDomains(user.headers);
    expect(response.status).toBe(200);
    expect(response.body?.domains.map((domain: { id: string }) => domain.id)).toEqual([newer, older]);
  });
});

describe("who may reach a domain", () => {
  let owner: TestUser;
  let stranger: TestUser;
  let ownerKey: Headers;
  let strangerKey: Headers;
  let domainId: string;
  beforeAll(async () => {
    ({ owner, stranger, ownerKey, strangerKey } = await app.signUpOwnerAndStranger("domains"));
    domainId = await addDomainOrFail("owned.example", owner);
  });

  it("answers another user, by session or API key, 404 domain.not_found on every call, changing nothing", async () => {
    for (const headers of [stranger.headers, strangerKey]) {
      for (const response of [
        await getDomain(domainId, headers),
        await verifyDomain(domainId, headers),
        await deleteDomain(domainId, headers),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body?.error).toEqual({ code: "domain.not_found", message: "The domain was not found." });
      }
    }
    expect(await app.database.prisma.domain.findUnique({ where: { id: domainId } })).toMatchObject({ lastCheckedAt: null });
  });

  it("serves the owner's API key like their session", async () => {
    expect((await listDomains(ownerKey)).body?.domains.map((domain: { id: string }) => domain.id)).toEqual([domainId]);
    expect((await getDomain(domainId, ownerKey)).body?.domain.name).toBe("owned.example");
    expect((await getDomain(domainId, owner.headers)).body?.domain.name).toBe("owned.example");
  });

  it("answers 401 auth.unauthorized with no caller", async () => {
    for (const response of [await listDomains({}), await addDomain("anon.example", {}), await getDomain(domainId, {})]) {
      expect(response.status).toBe(401);
      expect(response.body?.error.code).toBe("auth.unauthorized");
    }
  });

  it("lets the owner's key add and delete a domain", async () => {
    const keyOwner = await app.signUp("key-owner");
    const key = (await app.createApiKey(keyOwner)).headers;
    const added = await addDomain("by-key.example", key);
    expect(added.status).toBe(201);
    expect((await deleteDomain(added.body?.domain.id, key)).status).toBe(204);
  });
});

describe("DELETE /api/domains/{id}", () => {
  it("deletes the domain (204), after which it is not found and its slot is free", async () => {
    const user = await app.signUp("deleter");
    const domainId = await addDomainOrFail("gone.example", user);
    const response = await deleteDomain(domainId, user.headers);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect((await getDomain(domainId, user.headers)).status).toBe(404);
    await addDomainOrFail("replacement.example", user);
  });

  it("answers 409 domain.in_use while an address of the owner is on it, and deletes it once the address is deleted", async () => {
    const user = await app.signUp("in-use");
    const domainId = await addDomainOrFail("busy.example", user);
    const { emailCallbacks } = await seedDatabase(app.database, {
      emailCallbacks: [{ userId: user.userId, domain: "busy.example" }],
    });
    const refused = await deleteDomain(domainId, user.headers);
    expect(refused.status).toBe(409);
    expect(refused.body?.error.code).toBe("domain.in_use");
    expect(await app.database.prisma.domain.findUnique({ where: { id: domainId } })).not.toBeNull();

    await app.database.prisma.emailCallback.update({ where: { id: emailCallbacks[0]!.id }, data: { deletedAt: new Date() } });
    expect((await deleteDomain(domainId, user.headers)).status).toBe(204);
  });

  it("does not count another account's address on the same name", async () => {
    const [user, other] = [await app.signUp("name-owner"), await app.signUp("name-other")];
    const domainId = await addDomainOrFail("two-claims.example", user);
    await seedDatabase(app.database, { emailCallbacks: [{ userId: other.userId, domain: "two-claims.example" }] });
    expect((await deleteDomain(domainId, user.headers)).status).toBe(204);
  });
});
