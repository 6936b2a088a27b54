// `npm start` builds the app when there is no production build, or when what the last one was made
// from changed (build-freshness.ts): the sources, the configuration files, the lockfile, or a
// variable Next.js writes into the bundles. A `git pull` followed by `npm start` serves the new
// code; changing any other variable only needs a restart.

import { spawn } from "node:child_process";
import path from "node:path";
import type { Logger } from "@/modules/shared/logging/logger";
import { logStreamLines } from "@/modules/shared/logging/process-output";
import { type BuildInputs, findRebuildReason, readBuildInputs, writeBuildRecord } from "./build-freshness";

/**
 * Builds the app when it must, saying why ("Building the app: NEXT_PUBLIC_X changed…"). The inputs
 * are read before the build, so a file changed while it runs makes the next start build again.
 */
export async function buildAppIfStale(
  projectDir: string,
  environment: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<{ built: boolean }> {
  const inputs = readBuildInputs(projectDir, environment);
  const reason = findRebuildReason(projectDir, inputs);
  if (reason === null) return { built: false };
  await runNextBuild({ projectDir, environment, inputs, reason, logger });
  return { built: true };
}

/** Whether the production build is current (for the benchmarks, which build it themselves). */
export function isBuildCurrent(projectDir: string, environment: NodeJS.ProcessEnv = process.env): boolean {
  return findRebuildReason(projectDir, readBuildInputs(projectDir, environment)) === null;
}

/** Builds the app whether or not it is current. */
export async function buildApp(projectDir: string, logger: Logger, environment: NodeJS.ProcessEnv = process.env) {
  const inputs = readBuildInputs(projectDir, environment);
  const reason = findRebuildReason(projectDir, inputs) ?? "asked for";
  await runNextBuild({ projectDir, environment, inputs, reason, logger });
}

/** Runs `next build`; its output goes through the logger line by line (`component: "next-build"`). */
async function runNextBuild({
  projectDir,
  environment,
  inputs,
  reason,
  logger,
}: {
  projectDir: string;
  environment: NodeJS.ProcessEnv;
  inputs: BuildInputs;
  reason: string;
  logger: Logger;
}) {
  logger.info(`Building the app: ${reason}…`);
  const nextCli = path.join(projectDir, "node_modules", "next", "dist", "bin", "next");
  const build = spawn(process.execPath, [nextCli, "build"], {
    cwd: projectDir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...environment, NEXT_TELEMETRY_DISABLED: "1" },
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
  writeBuildRecord(projectDir, inputs);
}
