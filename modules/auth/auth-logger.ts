// better-auth's log lines go to the process's logger (docs/architecture.md: Logs) at their own
// level, with `component: "better-auth"`, as plain words: without the colour codes, the time and
// the level that better-auth's own console line adds (the logger takes out any colour code left).
import { format } from "node:util";
import type { BetterAuthOptions } from "better-auth";
import type { Logger } from "@/modules/shared/logging/logger";

export function toBetterAuthLogger(logger: Logger): NonNullable<BetterAuthOptions["logger"]> {
  const authLogger = logger.child({ component: "better-auth" });
  return {
    disableColors: true,
    log: (level, message, ...args) => {
      const error = args.find((arg): arg is Error => arg instanceof Error);
      const text = format(message, ...args.filter((arg) => arg !== error));
      if (error) authLogger[level]({ err: error }, text);
      else authLogger[level](text);
    },
  };
}
