// `npm start` builds the app when there is no production build, or when the sources changed
// since the last one (a `git pull` followed by `npm start` serves the new code).

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "@/modules/shared/logging/logger";
import { logStreamLines } from "@/modules/shared/logging/process-output";

const SOURCE_PATHS = [
  "app",
  "components",
  "modules",
  "messages",
  "public",
  "proxy.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package-lock.json",
];

function findNewestModification(entry: string): number {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of fs.readdirSync(entry)) {
    if (child === "node_modules" || child.startsWith(".")) continue;
    newest = Math.max(newest, findNewestModification(path.join(entry, child)));
  }
  return newest;
}

export function isBuildCurrent(projectDir: string): boolean {
  const buildIdFile = path.join(projectDir, ".next", "BUILD_ID");
  if (!fs.existsSync(buildIdFile)) return false;
  const builtAt = fs.statSync(buildIdFile).mtimeMs;
  return SOURCE_PATHS.every((entry) => findNewestModification(path.join(projectDir, entry)) <= builtAt);
}

/** Runs `next build`; its output goes through the logger line by line (`component: "next-build"`). */
export async function buildApp(projectDir: string, logger: Logger) {
  logger.info("Building the app (first start, or the sources changed)…");
  const nextCli = path.join(projectDir, "node_modules", "next", "dist", "bin", "next");
  const build = spawn(process.execPath, [nextCli, "build"], {
    cwd: projectDir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const buildLogger = logger.child({ component: "next-build" });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    build.once("error", reject);
    build.once("close", (code, signal) => resolve({ code, signal }));
  });
  await Promise.all([
    logStreamLines(build.stdout, (line) => buildLogger.info(line)),
    logStreamLines(build.stderr, (line) => buildLogger.warn(line)),
  ]);
  const { code, signal } = await exited;
  if (code !== 0) throw new Error(`The build failed (next build exited with ${code ?? signal}).`);
}
