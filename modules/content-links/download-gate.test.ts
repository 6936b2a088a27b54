import { describe, expect, it } from "vitest";
import { type AppError, isAppError } from "@/modules/shared/errors/app-error";
import { createDownloadGate, DEFAULT_DOWNLOAD_LIMITS, type DownloadLimits } from "./download-gate";
import { openHeldDownload } from "./download-stream";

const MIB = 1024 * 1024;
const limits = (changes: Partial<DownloadLimits> = {}): DownloadLimits => ({
  ...DEFAULT_DOWNLOAD_LIMITS,
  heldBytes: 40 * MIB,
  keptForSmallBytes: 8 * MIB,
  smallBytes: 1 * MIB,
  waiting: 2,
  perLink: 2,
  perOwner: 3,
  ...changes,
});
const holders = (link: string, owner = "usr_owner") => [
  { key: `link:${link}`, max: 2 },
  { key: `links-of:${owner}`, max: 3 },
];
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(isAppError(error)).toBe(true);
  return error as AppError;
}

describe("the download gate (docs/security.md: Large stored content)", () => {
  it("keeps a download's place until its body has been read to the end, not until its bytes are ready", async () => {
    const gate = createDownloadGate(limits());
    const download = await openHeldDownload({
      gate,
      claim: { bytes: 4 * MIB, holders: holders("a") },
      open: async () => ({ body: new Uint8Array(200_000) }),
    });
    expect(gate.counts()).toMatchObject({ running: 1, heldBytes: 4 * MIB });
    const reader = download.body.getReader();
    let received = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      expect(gate.counts().running).toBe(1);
      received += chunk.value.byteLength;
    }
    expect(received).toBe(200_000);
    expect(gate.counts()).toEqual({ running: 0, waiting: 0, heldBytes: 0, byHolder: {} });
  });

  it("frees a download's place when its client goes, or when opening it fails", async () => {
    const gate = createDownloadGate(limits());
    const download = await openHeldDownload({
      gate,
      claim: { bytes: MIB, holders: holders("a") },
      open: async () => ({ body: new Uint8Array(500_000) }),
    });
    const reader = download.body.getReader();
    await reader.read();
    await reader.cancel();
    expect(gate.counts().running).toBe(0);
    await expect(
      openHeldDownload({
        gate,
        claim: { bytes: MIB, holders: holders("a") },
        open: async () => Promise.reject(new Error("gone")),
      }),
    ).rejects.toThrow("gone");
    expect(gate.counts()).toEqual({ running: 0, waiting: 0, heldBytes: 0, byHolder: {} });
  });

  it("lets one link hold at most its few places and one owner's links theirs, answering 503 with Retry-After beyond while others still get in", async () => {
    const gate = createDownloadGate(limits());
    await gate.enter({ bytes: MIB, holders: holders("a") });
    await gate.enter({ bytes: MIB, holders: holders("a") });
    const overLink = await refusal(gate.enter({ bytes: MIB, holders: holders("a") }));
    expect(overLink.httpStatus).toBe(503);
    expect(overLink.code).toBe("service.unavailable");
    expect(overLink.retryAfterSeconds).toBeGreaterThan(0);
    await gate.enter({ bytes: MIB, holders: holders("b") });
    expect((await refusal(gate.enter({ bytes: MIB, holders: holders("c") }))).httpStatus).toBe(503);
    await gate.enter({ bytes: MIB, holders: holders("d", "usr_other") });
    expect(gate.counts()).toMatchObject({ running: 4, byHolder: { "link:a": 2, "links-of:usr_owner": 3 } });
  });

  it("counts the bytes downloads hold: big ones wait once they would take the part kept for small ones, which still get in", async () => {
    const gate = createDownloadGate(limits());
    const big = [
      await gate.enter({ bytes: 15 * MIB, holders: holders("a", "usr_1") }),
      await gate.enter({ bytes: 15 * MIB, holders: holders("b", "usr_2") }),
    ];
    let isThirdIn = false;
    const third = gate.enter({ bytes: 15 * MIB, holders: holders("c", "usr_3") }).then((place) => {
      isThirdIn = true;
      return place;
    });
    await tick();
    expect(isThirdIn).toBe(false);
    expect(gate.counts()).toMatchObject({ running: 2, waiting: 1, heldBytes: 30 * MIB });

    const small = await gate.enter({ bytes: 512 * 1024, holders: [{ key: "caller:usr_owner", max: 4 }] });
    expect(gate.counts()).toMatchObject({ running: 3, waiting: 1 });

    big[0]!.shrinkTo(MIB);
    await tick();
    expect(isThirdIn).toBe(true);
    small.release();
    big[1]!.release();
    (await third).release();
    big[0]!.release();
    expect(gate.counts()).toEqual({ running: 0, waiting: 0, heldBytes: 0, byHolder: {} });
  });

  it("answers 503 past its queue, and a waiter whose client goes gives up its turn", async () => {
    const gate = createDownloadGate(limits({ waiting: 1 }));
    const first = await gate.enter({ bytes: 30 * MIB, holders: holders("a", "usr_1") });
    const gone = new AbortController();
    const waiting = gate.enter({ bytes: 30 * MIB, holders: holders("b", "usr_2"), signal: gone.signal });
    expect((await refusal(gate.enter({ bytes: 30 * MIB, holders: holders("c", "usr_3") }))).httpStatus).toBe(503);
    gone.abort(new Error("client went"));
    await expect(waiting).rejects.toThrow("client went");
    expect(gate.counts()).toMatchObject({ running: 1, waiting: 0, byHolder: { "link:a": 1, "links-of:usr_1": 1 } });
    first.release();
  });

  it("lets a download larger than all the room in when it is alone", async () => {
    const gate = createDownloadGate(limits());
    const place = await gate.enter({ bytes: 100 * MIB, holders: holders("a") });
    expect(gate.counts().running).toBe(1);
    place.release();
  });

  it("cuts off a client that takes nothing for the idle time, and frees its place", async () => {
    const gate = createDownloadGate(limits({ idleMs: 50 }));
    const download = await openHeldDownload({
      gate,
      claim: { bytes: 4 * MIB, holders: holders("a") },
      open: async () => ({ body: new Uint8Array(300_000) }),
    });
    const reader = download.body.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(gate.counts().running).toBe(0);
    await expect(reader.read()).rejects.toThrow(/cut off/);
  });

  it("cuts off a download not sent in full after the send time, however its client reads", async () => {
    const gate = createDownloadGate(limits({ idleMs: 1_000, sendMs: 80 }));
    let pulls = 0;
    const trickle = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        pulls += 1;
        controller.enqueue(new Uint8Array(10));
      },
    });
    const download = await openHeldDownload({
      gate,
      claim: { bytes: MIB, holders: holders("a") },
      open: async () => ({ body: trickle }),
    });
    const reader = download.body.getReader();
    const outcome = (async () => {
      for (;;) {
        await reader.read();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await expect(outcome).rejects.toThrow(/cut off/);
    expect(pulls).toBeGreaterThan(1);
    expect(gate.counts().running).toBe(0);
  });
});
