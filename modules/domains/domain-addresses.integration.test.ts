// Addresses on users' own domains and the route preview, through their route handlers on a fresh
// database (docs/domains.md): which domains and usernames POST/PUT /api/email-callbacks accept, and
// what GET /api/domains/route answers, never telling anything of another account's domains.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as route from "@/app/api/domains/route/route";
import * as callbackItem from "@/app/api/email-callbacks/[emailCallbackId]/route";
import * as callbacks from "@/app/api/email-callbacks/route";
import { createId } from "@/modules/shared/ids";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";

let app: RouteTestApp;
let owner: TestUser;
let stranger: TestUser;

const createAddress = (user: TestUser, domain: string, username: string) =>
  app.call(callbacks.POST, {
    path: "/api/email-callbacks",
    method: "POST",
    body: { domain, username, webhookUrl: "https://hooks.example.com/incoming" },
    headers: user.headers,
  });
const updateAddress = (user: TestUser, id: string, body: Record<string, unknown>) =>
  app.call(callbackItem.PUT, {
    path: `/api/email-callbacks/${id}`,
    method: "PUT",
    body,
    headers: user.headers,
    params: { emailCallbackId: id },
  });
const preview = (to: string | null, headers: Record<string, string>) =>
  app.call(route.GET, { path: to === null ? "/api/domains/route" : `/api/domains/route?to=${encodeURIComponent(to)}`, headers });

async function seedDomain(user: TestUser, name: string, status: "pending" | "verified" | "failing") {
  await app.database.prisma.domain.create({ data: { id: createId("domain"), userId: user.userId, name, token: "t", status } });
}

async function createAddressOrFail(user: TestUser, domain: string, username: string): Promise<string> {
  const response = await createAddress(user, domain, username);
  expect(response.status).toBe(201);
  return response.body?.emailCallback.id as string;
}

beforeAll(async () => {
  app = await startRouteTestApp();
  owner = await app.signUp("owner");
  stranger = await app.signUp("stranger");
  for (const user of [owner, stranger]) {
    await app.database.prisma.user.update({ where: { id: user.userId }, data: { planId: "pro" } });
  }
  await seedDomain(owner, "own.example", "verified");
  await seedDomain(owner, "grace.example", "failing");
  await seedDomain(owner, "waiting.example", "pending");
  await seedDomain(stranger, "theirs.example", "verified");
  // The stranger's pending claim of a name the owner holds, and the owner's of one the stranger holds.
  await seedDomain(stranger, "own.example", "pending");
  await seedDomain(owner, "theirs.example", "pending");
});
afterAll(() => app.close());

describe("addresses on a user's own domain", () => {
  it("takes exact usernames (reserved ones included), patterns and the catch-all on a verified or failing domain", async () => {
    for (const username of ["postmaster", "orders-*", "*"]) await createAddressOrFail(owner, "own.example", username);
    await createAddressOrFail(owner, "grace.example", "support");
    const stored = await app.database.prisma.emailCallback.findFirstOrThrow({
      where: { domain: "own.example", username: "orders-*" },
    });
    expect(stored).toMatchObject({ matchKind: 1, likePattern: "orders-_%", literalCount: 7 });
  });

  it("refuses a pending domain, another account's and an unknown one with 400 email_callback.invalid_domain", async () => {
    for (const domain of ["waiting.example", "theirs.example", "nowhere.example"]) {
      const response = await createAddress(owner, domain, "orders");
      expect(response.status).toBe(400);
      expect(response.body?.error.code).toBe("email_callback.invalid_domain");
    }
  });

  it("refuses patterns and the catch-all on the operator's domains with 400 email_callback.invalid_username, and reserved usernames there", async () => {
    for (const username of ["orders-*", "*"]) {
      const response = await createAddress(owner, "hookmail.test", username);
      expect(response.status).toBe(400);
      expect(response.body?.error.code).toBe("email_callback.invalid_username");
    }
    expect((await createAddress(owner, "hookmail.test", "postmaster")).body?.error.code).toBe(
      "email_callback.username_not_allowed",
    );
  });

  it("does not make an address on a domain deleted while it is being made: the deletion goes first, the address is refused", async () => {
    await seedDomain(owner, "going.example", "verified");
    let creation: ReturnType<typeof createAddress> | undefined;
    await app.database.prisma.$transaction(async (transaction) => {
      // As DELETE /api/domains/{id} does: lock the domain's row, find no address, delete it.
      await transaction.$queryRaw`SELECT "id" FROM "domain" WHERE "name" = 'going.example' AND "userId" = ${owner.userId} FOR UPDATE`;
      await transaction.domain.deleteMany({ where: { name: "going.example", userId: owner.userId } });
      creation = createAddress(owner, "going.example", "late");
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const response = await creation!;
    expect(response.status).toBe(400);
    expect(response.body?.error.code).toBe("email_callback.invalid_domain");
    expect(await app.database.prisma.emailCallback.count({ where: { domain: "going.example" } })).toBe(0);
  });

  it("does not move an address onto a domain deleted while it is being moved", async () => {
    await seedDomain(owner, "leaving.example", "verified");
    const id = await createAddressOrFail(owner, "hookmail.test", `stay-${Date.now()}`);
    let move: ReturnType<typeof updateAddress> | undefined;
    await app.database.prisma.$transaction(async (transaction) => {
      await transaction.$queryRaw`SELECT "id" FROM "domain" WHERE "name" = 'leaving.example' AND "userId" = ${owner.userId} FOR UPDATE`;
      await transaction.domain.deleteMany({ where: { name: "leaving.example", userId: owner.userId } });
      move = updateAddress(owner, id, { domain: "leaving.example" });
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect((await move!).body?.error.code).toBe("email_callback.invalid_domain");
    expect(await app.database.prisma.emailCallback.findUniqueOrThrow({ where: { id } })).toMatchObject({
      domain: "hookmail.test",
    });
  });

  it("moves an address onto an own domain as a pattern, and refuses to move a pattern onto an operator domain", async () => {
    const id = await createAddressOrFail(owner, "hookmail.test", `mover-${Date.now()}`);
    const moved = await updateAddress(owner, id, { domain: "grace.example", username: "billing-*" });
    expect(moved.status).toBe(200);
    expect(await app.database.prisma.emailCallback.findUniqueOrThrow({ where: { id } })).toMatchObject({
      matchKind: 1,
      likePattern: "billing-_%",
      literalCount: 8,
    });
    const back = await updateAddress(owner, id, { domain: "hookmail.test" });
    expect(back.body?.error.code).toBe("email_callback.invalid_username");
  });
});

describe("GET /api/domains/route", () => {
  let exactId: string;
  let pausedId: string;

  beforeAll(async () => {
    await seedDomain(owner, "preview.example", "verified");
    exactId = await createAddressOrFail(owner, "preview.example", "sales");
    await createAddressOrFail(owner, "preview.example", "orders-*");
    pausedId = await createAddressOrFail(owner, "preview.example", "paused");
    await updateAddress(owner, pausedId, { isEnabled: false });
  });

  it("answers the exact address, the pattern, or no-address, with the recipient as given", async () => {
    expect((await preview("Sales+Q3@preview.example", owner.headers)).body).toEqual({
      recipient: "Sales+Q3@preview.example",
      match: "exact",
      emailCallback: { id: exactId, username: "sales", domain: "preview.example" },
      reason: null,
    });
    expect((await preview("orders-eu@preview.example", owner.headers)).body).toMatchObject({
      match: "pattern",
      emailCallback: { username: "orders-*" },
      reason: null,
    });
    expect((await preview("nobody@preview.example", owner.headers)).body).toEqual({
      recipient: "nobody@preview.example",
      match: null,
      emailCallback: null,
      reason: "no-address",
    });
  });

  it("answers the catch-all after everything else, and disabled for a disabled address", async () => {
    expect((await preview("anyone@own.example", owner.headers)).body).toMatchObject({ match: "catch-all", reason: null });
    expect((await preview("paused@preview.example", owner.headers)).body).toMatchObject({
      match: "exact",
      emailCallback: { id: pausedId },
      reason: "disabled",
    });
  });

  it("answers unverified-domain for the caller's pending domain, also one another account holds", async () => {
    for (const to of ["a@waiting.example", "a@theirs.example"]) {
      expect((await preview(to, owner.headers)).body).toMatchObject({
        match: null,
        emailCallback: null,
        reason: "unverified-domain",
      });
    }
  });

  it("answers unknown-domain for another account's domain and the operator's, telling nothing of their addresses", async () => {
    const strangerKey = (await app.createApiKey(stranger)).headers;
    for (const to of ["sales@preview.example", "x@hookmail.test", "x@nowhere.example"]) {
      expect((await preview(to, strangerKey)).body).toEqual({
        recipient: to,
        match: null,
        emailCallback: null,
        reason: "unknown-domain",
      });
    }
    // A name the owner holds and the stranger has pending: the stranger's own claim answers.
    expect((await preview("anyone@own.example", strangerKey)).body).toEqual({
      recipient: "anyone@own.example",
      match: null,
      emailCallback: null,
      reason: "unverified-domain",
    });
  });

  it("refuses a `to` that is no address with 400 domain.invalid_address", async () => {
    for (const to of [null, "", "no-at-sign", "a b@own.example"]) {
      const response = await preview(to, owner.headers);
      expect(response.status).toBe(400);
      expect(response.body?.error.code).toBe("domain.invalid_address");
    }
  });
});
