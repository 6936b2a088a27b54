// The `hookmail` command run as a child process with this Node, its output collected as it comes
// (README: The hookmail command).
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

export const HOOKMAIL_CLI = path.resolve(import.meta.dirname, "../../bin/hookmail.mjs");

export type RunningCli = { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> };

export function startCli(args: string[], env: NodeJS.ProcessEnv): RunningCli {
  const child = spawn(process.execPath, [HOOKMAIL_CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}
