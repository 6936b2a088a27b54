import { describe, expect, it, vi } from "vitest";
import type { InboundCallback, InboundRepository, InboundRoute, RecipientKey } from "./inbound.repository";
import { createRecipientCache, withRecipientCache } from "./recipient-cache";

const callback = (username: string): InboundCallback => ({
  id: `ecb_${username}`,
  domain: "hookmail.test",
  username,
  isEnabled: true,
  allowedOrigins: [],
  webhookUrl: "https://hooks.example.com/in",
  webhookSecret: null,
  attachmentDelivery: "inline",
  authenticationPolicy: "none",
  spamThreshold: null,
  endpoints: [],
});
const route = (username: string, callbackChanges: Partial<InboundCallback> = {}): InboundRoute => ({
  callback: { ...callback(username), ...callbackChanges },
  match: "exact",
});
const key = (username: string): RecipientKey => ({ domain: "hookmail.test", username });

describe("createRecipientCache", () => {
  it("hands a remembered route out once, and not after its time", () => {
    let time = 0;
    const cache = createRecipientCache({ ttlMs: 1000, now: () => time });
    cache.remember(key("alice"), route("alice"));
    expect(cache.take(key("alice"))?.callback.id).toBe("ecb_alice");
    expect(cache.take(key("alice"))).toBeUndefined();
    cache.remember(key("bob"), route("bob"));
    time = 1000;
    expect(cache.take(key("bob"))).toBeUndefined();
  });

  it("hands a route out as many times as it was remembered, the latest one each time, for sessions sending to one address at once", () => {
    const cache = createRecipientCache({ ttlMs: 1000, now: () => 0 });
    cache.remember(key("alice"), route("alice"));
    cache.remember(key("alice"), route("alice", { isEnabled: false }));
    expect(cache.take(key("alice"))?.callback.isEnabled).toBe(false);
    expect(cache.take(key("alice"))?.callback.isEnabled).toBe(false);
    expect(cache.take(key("alice"))).toBeUndefined();
  });

  it("keeps at most maxEntries, dropping the oldest and the expired first", () => {
    let time = 0;
    const cache = createRecipientCache({ ttlMs: 1000, maxEntries: 3, now: () => time });
    for (const name of ["a", "b", "c", "d"]) cache.remember(key(name), route(name));
    expect(cache.size()).toBe(3);
    expect(cache.take(key("a"))).toBeUndefined();
    time = 2000;
    cache.remember(key("e"), route("e"));
    expect(cache.size()).toBe(1);
    expect(cache.take(key("e"))?.callback.id).toBe("ecb_e");
  });

  it("knows whether a domain is served for domainTtlMs, then not any more", () => {
    let time = 0;
    const cache = createRecipientCache({ domainTtlMs: 5000, now: () => time });
    cache.rememberDomain("example.org", false);
    expect(cache.isDomainServed("example.org")).toBe(false);
    expect(cache.isDomainServed("other.example")).toBeUndefined();
    time = 5000;
    expect(cache.isDomainServed("example.org")).toBeUndefined();
  });
});

describe("withRecipientCache", () => {
  function setUp(now: () => number = () => 0) {
    const repository = {
      findRoute: vi.fn(async ({ username }: RecipientKey) => (username === "nobody" ? null : route(username))),
      findRoutes: vi.fn(async (recipients: RecipientKey[]) => recipients.map(({ username }) => route(username))),
      isServedDomain: vi.fn(async (name: string) => name === "example.org"),
      findDomainOfUser: vi.fn(async () => null),
      createProcessings: vi.fn(async () => []),
      stageSlice: vi.fn(async () => undefined),
      stageFile: vi.fn(async (uploadId: string) => ({ uploadId, byteLength: 0 })),
      deleteUploads: vi.fn(async () => undefined),
      getAcceptGroupStats: () => ({ writes: 0, items: 0, retriedAlone: 0 }),
    } satisfies InboundRepository;
    return { repository, cached: withRecipientCache(repository, createRecipientCache({ domainTtlMs: 5000, now })) };
  }

  it("routes a message to the addresses its RCPT checks found, asking the database only for the others, in the recipients' order", async () => {
    const { repository, cached } = setUp();
    expect(await cached.findRoute(key("alice"), [])).not.toBeNull();
    expect(await cached.findRoute(key("nobody"), [])).toBeNull();
    const found = await cached.findRoutes([key("carol"), key("alice")], ["hookmail.test"]);
    expect(found.map((found) => found?.callback.id)).toEqual(["ecb_carol", "ecb_alice"]);
    expect(repository.findRoutes).toHaveBeenCalledWith([key("carol")], ["hookmail.test"]);
  });

  it("asks the database again for the next message to the same address", async () => {
    const { repository, cached } = setUp();
    await cached.findRoute(key("alice"), []);
    await cached.findRoutes([key("alice")], []);
    expect(repository.findRoutes).not.toHaveBeenCalled();
    await cached.findRoutes([key("alice")], []);
    expect(repository.findRoutes).toHaveBeenCalledTimes(1);
  });

  it("asks whether a domain is served at most once per domainTtlMs", async () => {
    let time = 0;
    const { repository, cached } = setUp(() => time);
    expect(await cached.isServedDomain("nobody.example")).toBe(false);
    expect(await cached.isServedDomain("nobody.example")).toBe(false);
    expect(repository.isServedDomain).toHaveBeenCalledTimes(1);
    time = 5000;
    await cached.isServedDomain("nobody.example");
    expect(repository.isServedDomain).toHaveBeenCalledTimes(2);
  });
});
