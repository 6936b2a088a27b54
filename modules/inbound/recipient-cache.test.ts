import { describe, expect, it, vi } from "vitest";
import type { InboundCallback, InboundRepository } from "./inbound.repository";
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
});

describe("createRecipientCache", () => {
  it("hands a remembered callback out once, and not after its time", () => {
    let time = 0;
    const cache = createRecipientCache({ ttlMs: 1000, now: () => time });
    cache.remember(callback("alice"));
    expect(cache.take("hookmail.test", "alice")?.id).toBe("ecb_alice");
    expect(cache.take("hookmail.test", "alice")).toBeUndefined();
    cache.remember(callback("bob"));
    time = 1000;
    expect(cache.take("hookmail.test", "bob")).toBeUndefined();
  });

  it("hands a callback out as many times as it was remembered, the latest one each time, for sessions sending to one address at once", () => {
    const cache = createRecipientCache({ ttlMs: 1000, now: () => 0 });
    cache.remember(callback("alice"));
    cache.remember({ ...callback("alice"), isEnabled: false });
    expect(cache.take("hookmail.test", "alice")?.isEnabled).toBe(false);
    expect(cache.take("hookmail.test", "alice")?.isEnabled).toBe(false);
    expect(cache.take("hookmail.test", "alice")).toBeUndefined();
  });

  it("keeps at most maxEntries, dropping the oldest and the expired first", () => {
    let time = 0;
    const cache = createRecipientCache({ ttlMs: 1000, maxEntries: 3, now: () => time });
    for (const name of ["a", "b", "c", "d"]) cache.remember(callback(name));
    expect(cache.size()).toBe(3);
    expect(cache.take("hookmail.test", "a")).toBeUndefined();
    time = 2000;
    cache.remember(callback("e"));
    expect(cache.size()).toBe(1);
    expect(cache.take("hookmail.test", "e")?.id).toBe("ecb_e");
  });
});

describe("withRecipientCache", () => {
  function setUp() {
    const repository = {
      findLiveCallback: vi.fn(async (_domain: string, username: string) => (username === "nobody" ? null : callback(username))),
      findLiveCallbacks: vi.fn(async (addresses: { domain: string; username: string }[]) =>
        addresses.map(({ username }) => callback(username)),
      ),
      createProcessings: vi.fn(async () => []),
    } satisfies InboundRepository;
    return { repository, cached: withRecipientCache(repository, createRecipientCache()) };
  }

  it("routes a message to the callbacks its RCPT checks found, asking the database only for the others", async () => {
    const { repository, cached } = setUp();
    expect(await cached.findLiveCallback("hookmail.test", "alice")).not.toBeNull();
    expect(await cached.findLiveCallback("hookmail.test", "nobody")).toBeNull();
    const found = await cached.findLiveCallbacks([
      { domain: "hookmail.test", username: "alice" },
      { domain: "hookmail.test", username: "carol" },
    ]);
    expect(found.map(({ id }) => id).sort()).toEqual(["ecb_alice", "ecb_carol"]);
    expect(repository.findLiveCallbacks).toHaveBeenCalledWith([{ domain: "hookmail.test", username: "carol" }]);
  });

  it("asks the database again for the next message to the same address", async () => {
    const { repository, cached } = setUp();
    await cached.findLiveCallback("hookmail.test", "alice");
    await cached.findLiveCallbacks([{ domain: "hookmail.test", username: "alice" }]);
    expect(repository.findLiveCallbacks).not.toHaveBeenCalled();
    await cached.findLiveCallbacks([{ domain: "hookmail.test", username: "alice" }]);
    expect(repository.findLiveCallbacks).toHaveBeenCalledTimes(1);
  });
});
