// Under `npm start` every line of the process's output is one JSON object with a level
// (docs/architecture.md: Logs): console.*, Node's warnings and a child process's lines go through the logger.
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";
import { logStreamLines, routeProcessOutputThroughLogger } from "./process-output";

function captureLines() {
  const lines: string[] = [];
  const logger = createLogger({ level: "debug", destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** A stand-in for `process` with only what the routing touches: events and exit. */
function createHost() {
  const host = new EventEmitter() as EventEmitter & { exit: (code: number) => void; exitCodes: number[] };
  host.exitCodes = [];
  host.exit = (code) => void host.exitCodes.push(code);
  return host;
}

describe("routeProcessOutputThroughLogger", () => {
  it("writes console.* as JSON lines with component console and the method's level, formatted as console would", () => {
    const { logger, entries } = captureLines();
    const ignore = (..._args: unknown[]) => undefined;
    const target = { log: ignore, info: ignore, debug: ignore, trace: ignore, warn: ignore, error: ignore };
    const host = createHost();
    const undo = routeProcessOutputThroughLogger({ logger, target, host: host as unknown as NodeJS.Process });
    target.log("ready in %d ms", 42);
    target.warn("[Better Auth]:", { note: "a warning" });
    target.error(new TypeError("boom"));
    expect(entries().map(({ level, component, msg }) => ({ level, component, msg: String(msg).split("\n")[0] }))).toEqual([
      { level: 30, component: "console", msg: "ready in 42 ms" },
      { level: 40, component: "console", msg: "[Better Auth]: { note: 'a warning' }" },
      { level: 50, component: "console", msg: "TypeError: boom" },
    ]);
    undo();
  });

  it("logs Node's warnings instead of Node's own stderr line, and an uncaught exception as fatal before exit code 1", () => {
    const { logger, entries } = captureLines();
    const host = createHost();
    const nodesOwn: unknown[] = [];
    host.on("warning", (warning) => nodesOwn.push(warning));
    const undo = routeProcessOutputThroughLogger({ logger, target: { ...console }, host: host as unknown as NodeJS.Process });
    host.emit("warning", Object.assign(new Error("Buffer() is deprecated"), { name: "DeprecationWarning" }));
    host.emit("uncaughtException", new Error("nobody caught me"));
    expect(nodesOwn).toEqual([]);
    expect(entries()).toMatchObject([
      { level: 40, component: "node", msg: "DeprecationWarning: Buffer() is deprecated" },
      { level: 60, msg: "Uncaught exception, exiting", err: { message: "nobody caught me" } },
    ]);
    expect(host.exitCodes).toEqual([1]);
    undo();
    expect(host.listenerCount("warning")).toBe(1);
    expect(host.listenerCount("uncaughtException")).toBe(0);
  });
});

describe("logStreamLines", () => {
  it("hands over each non-blank line as it comes, without terminal colour codes, the last one without a newline too", async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    const done = logStreamLines(stream, (line) => lines.push(line));
    stream.write("\u001b[1m\u001b[38;2;173;127;168m▲ Next.js 16\u001b[39m\u001b[22m\n\n   Creating an optimi");
    stream.write("zed production build ...\r\n");
    stream.end("✓ Compiled");
    await done;
    expect(lines).toEqual(["▲ Next.js 16", "   Creating an optimized production build ...", "✓ Compiled"]);
  });
});
