// POST /api/domains/{id}/verify against a DNS server on loopback (DNS_SERVERS): a domain is
// verified once `_hookmail.<name>` carries its token and an MX of the name points at MX_HOSTNAME;
// otherwise pending with each missing or wrong record said in words; a check never takes more than
// 5 s; and a name another account holds is never taken from it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as item from "@/app/api/domains/[domainId]/route";
import * as verify from "@/app/api/domains/[domainId]/verify/route";
import * as collection from "@/app/api/domains/route";
import { startDnsServer, type TestDnsServer } from "@/tests/support/dns-server";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";

const MX_HOSTNAME = "mx.hookmail.example";

let app: RouteTestApp;
let dns: TestDnsServer;

beforeAll(async () => {
  dns = await startDnsServer();
  app = await startRouteTestApp({ DNS_SERVERS: dns.address, MX_HOSTNAME });
});
afterAll(async () => {
  await app.close();
  await dns.close();
});

/** Adds `name` for a new user; answers the user, the domain's id and the TXT value it must publish. */
async function addDomain(name: string, user?: TestUser) {
  const owner = user ?? (await app.signUp("verifier"));
  const response = await app.call(collection.POST, {
    path: "/api/domains",
    method: "POST",
    body: { name },
    headers: owner.headers,
  });
  expect(response.status).toBe(201);
  const { id, records } = response.body!.domain as { id: string; records: { type: string; value: string }[] };
  return { owner, domainId: id, txtValue: records.find((record) => record.type === "TXT")!.value };
}

async function verifyDomain(domainId: string, user: TestUser) {
  const response = await app.call(verify.POST, {
    path: `/api/domains/${domainId}/verify`,
    method: "POST",
    headers: user.headers,
    params: { domainId },
  });
  expect(response.status).toBe(200);
  return response.body?.domain as {
    status: string;
    verifiedAt: string | null;
    lastCheckedAt: string;
    lastCheckError: string | null;
  };
}

const mxTo = (exchange: string, priority = 10) => ({ MX: [{ exchange, priority }] });

describe("verifying a domain", () => {
  it("leaves a domain with no records pending, naming both, then verifies it once they are set", async () => {
    const { owner, domainId, txtValue } = await addDomain("fresh.example");

    const before = await verifyDomain(domainId, owner);
    expect(before).toMatchObject({
      status: "pending",
      verifiedAt: null,
      lastCheckError: "TXT _hookmail.fresh.example not found; MX fresh.example not found",
    });
    expect(Date.parse(before.lastCheckedAt)).toBeGreaterThan(Date.now() - 60_000);

    dns.set("_hookmail.fresh.example", { TXT: ["v=spf1 -all", txtValue] });
    dns.set("fresh.example", mxTo(MX_HOSTNAME));
    const after = await verifyDomain(domainId, owner);
    expect(after).toMatchObject({ status: "verified", lastCheckError: null });
    expect(after.verifiedAt).toBe(after.lastCheckedAt);
    expect(dns.queries).toEqual(expect.arrayContaining(["TXT _hookmail.fresh.example", "MX fresh.example"]));
  });

  it("accepts an MX of any preference among others, in any case and with a trailing dot", async () => {
    const { owner, domainId, txtValue } = await addDomain("mixed.example");
    dns.set("_hookmail.mixed.example", { TXT: [txtValue] });
    dns.set("mixed.example", {
      MX: [
        { exchange: "backup.other.example", priority: 5 },
        { exchange: "MX.Hookmail.Example.", priority: 50 },
      ],
    });
    expect(await verifyDomain(domainId, owner)).toMatchObject({ status: "verified", lastCheckError: null });
  });

  it("says where a wrong MX points", async () => {
    const { owner, domainId, txtValue } = await addDomain("wrong-mx.example");
    dns.set("_hookmail.wrong-mx.example", { TXT: [txtValue] });
    dns.set("wrong-mx.example", mxTo("mx.other.example"));
    expect(await verifyDomain(domainId, owner)).toMatchObject({
      status: "pending",
      lastCheckError: "MX wrong-mx.example points to mx.other.example, not mx.hookmail.example",
    });
  });

  it("says that the TXT record is missing when only the MX is set", async () => {
    const { owner, domainId } = await addDomain("no-txt.example");
    dns.set("no-txt.example", mxTo(MX_HOSTNAME));
    expect(await verifyDomain(domainId, owner)).toMatchObject({
      status: "pending",
      lastCheckError: "TXT _hookmail.no-txt.example not found",
    });
  });

  it("does not take another account's token for this account's", async () => {
    const { txtValue: othersValue } = await addDomain("two-tokens.example");
    const { owner, domainId, txtValue } = await addDomain("two-tokens.example");
    dns.set("_hookmail.two-tokens.example", { TXT: [othersValue] });
    dns.set("two-tokens.example", mxTo(MX_HOSTNAME));
    expect(await verifyDomain(domainId, owner)).toMatchObject({
      status: "pending",
      lastCheckError: `TXT _hookmail.two-tokens.example does not contain ${txtValue}`,
    });
  });

  it("says that a lookup timed out, and answers within the 5 s bound (figures inflated by a loaded machine)", async () => {
    const { owner, domainId } = await addDomain("silent.example");
    dns.silence("_hookmail.silent.example");
    dns.silence("silent.example");
    const startedAt = performance.now();
    const domain = await verifyDomain(domainId, owner);
    const elapsedMs = performance.now() - startedAt;
    expect(domain).toMatchObject({
      status: "pending",
      lastCheckError:
        "TXT _hookmail.silent.example not answered: the DNS lookup timed out after 5 s; " +
        "MX silent.example not answered: the DNS lookup timed out after 5 s",
    });
    expect(elapsedMs).toBeGreaterThan(4_500);
    expect(elapsedMs).toBeLessThan(7_000);
  }, 15_000);
});

describe("a name another account holds", () => {
  it("stays with its holder: another account's check leaves its own claim pending, until the holder deletes the domain", async () => {
    const holder = await addDomain("contested.example");
    const claimant = await addDomain("contested.example");
    dns.set("_hookmail.contested.example", { TXT: [holder.txtValue, claimant.txtValue] });
    dns.set("contested.example", mxTo(MX_HOSTNAME));
    expect((await verifyDomain(holder.domainId, holder.owner)).status).toBe("verified");

    expect(await verifyDomain(claimant.domainId, claimant.owner)).toMatchObject({
      status: "pending",
      verifiedAt: null,
      lastCheckError:
        "contested.example is already verified by another account: it can be verified here once that account deletes it",
    });
    const held = await app.database.prisma.domain.findUniqueOrThrow({ where: { id: holder.domainId } });
    expect(held.status).toBe("verified");

    const deleted = await app.call(item.DELETE, {
      path: `/api/domains/${holder.domainId}`,
      method: "DELETE",
      headers: holder.owner.headers,
      params: { domainId: holder.domainId },
    });
    expect(deleted.status).toBe(204);
    expect(await verifyDomain(claimant.domainId, claimant.owner)).toMatchObject({ status: "verified", lastCheckError: null });
  });

  it("cannot be held twice, even written straight to the database", async () => {
    const first = await addDomain("held-once.example");
    const second = await addDomain("held-once.example");
    await app.database.prisma.domain.update({ where: { id: first.domainId }, data: { status: "verified" } });
    await expect(
      app.database.prisma.domain.update({ where: { id: second.domainId }, data: { status: "failing" } }),
    ).rejects.toThrow();
  });
});

describe("checking a verified domain again", () => {
  it("turns it failing when its records are gone (it keeps the name), and verified again once they are back", async () => {
    const { owner, domainId, txtValue } = await addDomain("recheck.example");
    dns.set("_hookmail.recheck.example", { TXT: [txtValue] });
    dns.set("recheck.example", mxTo(MX_HOSTNAME));
    const verified = await verifyDomain(domainId, owner);
    expect(verified.status).toBe("verified");

    dns.set("recheck.example", mxTo("mx.elsewhere.example"));
    const failing = await verifyDomain(domainId, owner);
    expect(failing).toMatchObject({
      status: "failing",
      verifiedAt: verified.verifiedAt,
      lastCheckError: "MX recheck.example points to mx.elsewhere.example, not mx.hookmail.example",
    });
    const stored = await app.database.prisma.domain.findUniqueOrThrow({ where: { id: domainId } });
    expect(stored.failingSince?.toISOString()).toBe(failing.lastCheckedAt);

    dns.set("recheck.example", mxTo(MX_HOSTNAME));
    expect(await verifyDomain(domainId, owner)).toMatchObject({
      status: "verified",
      verifiedAt: verified.verifiedAt,
      lastCheckError: null,
    });
    expect((await app.database.prisma.domain.findUniqueOrThrow({ where: { id: domainId } })).failingSince).toBeNull();
  });
});
