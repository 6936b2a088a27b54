// better-auth's warnings in the process's JSON log (docs/architecture.md: Logs): through the logger
// better-auth is given (auth.server.ts), at their level and as plain text.
import { createLogger as createBetterAuthLogger } from "better-auth";
import { describe, expect, it } from "vitest";
import { createLogger } from "@/modules/shared/logging/logger";
import { toBetterAuthLogger } from "./auth-logger";

function captureLines() {
  const lines: string[] = [];
  const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
  return { logger, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>), lines };
}

describe("better-auth's log lines", () => {
  it("reach the JSON log without terminal colour codes, at their level, with component better-auth", () => {
    const { logger, entries, lines } = captureLines();
    const authLogger = createBetterAuthLogger(toBetterAuthLogger(logger));
    authLogger.warn("\x1b[33mRate limit exceeded\x1b[0m for \x1b[1m/sign-in/email\x1b[0m");
    authLogger.error("\x1b[31mCould not send the mail\x1b[0m", new Error("\x1b[31mconnection refused\x1b[0m"));
    for (const line of lines) {
      expect(line).not.toContain("\u001b");
      expect(line).not.toMatch(/\\u001b|\[(?:0|1|31|33)m/);
    }
    expect(entries()).toMatchObject([
      { level: 40, component: "better-auth", msg: "Rate limit exceeded for /sign-in/email" },
      { level: 50, component: "better-auth", msg: "Could not send the mail", err: { message: "connection refused" } },
    ]);
  });
});
