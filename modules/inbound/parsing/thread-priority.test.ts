import fs from "node:fs";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { PARSE_THREAD_NICE } from "./parsing.constants";

/** The nice value of a thread of this process: field 19 of its stat line, after the command's parentheses. */
function readNice(threadId: number | "thread-self"): number {
  const path = threadId === "thread-self" ? "/proc/thread-self/stat" : `/proc/self/task/${threadId}/stat`;
  const stat = fs.readFileSync(path, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

/** Runs lowerThreadPriority in a thread of its own; answers that thread's id and nice value while it runs. */
function lowerInThread(nice: number): Promise<{ done: boolean; threadId: number; niceSeen: number }> {
  const moduleUrl = new URL("./thread-priority.ts", import.meta.url).href;
  const code = `
    const { parentPort, workerData } = require("node:worker_threads");
    const fs = require("node:fs");
    import("tsx/esm/api").then(async ({ tsImport }) => {
      const { lowerThreadPriority } = await tsImport(workerData.moduleUrl, workerData.moduleUrl);
      const done = lowerThreadPriority(workerData.nice);
      const threadId = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
      const stat = fs.readFileSync("/proc/thread-self/stat", "utf8");
      const niceSeen = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
      parentPort.postMessage({ done, threadId, niceSeen });
    });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { moduleUrl, nice } });
    worker.once("message", (message) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

describe.runIf(process.platform === "linux")("lowerThreadPriority (docs/architecture.md: The main thread answers)", () => {
  it("lowers the calling thread alone: a parsing thread runs at PARSE_THREAD_NICE, the main thread keeps its priority", async () => {
    const before = readNice("thread-self");
    const seen = await lowerInThread(PARSE_THREAD_NICE);
    expect(seen.done).toBe(true);
    expect(seen.niceSeen).toBe(Math.max(before, PARSE_THREAD_NICE));
    expect(readNice("thread-self")).toBe(before);
  });

  it("never raises a thread's priority: a nice value below the thread's own is left as it is", async () => {
    const seen = await lowerInThread(-5);
    expect(seen.done).toBe(true);
    expect(seen.niceSeen).toBe(readNice("thread-self"));
  });
});
