// A spam engine for tests: Debian's rspamd started on loopback ports with a configuration of its own
// (its DNS pointed at the test's DNS server, so nothing reaches a real resolver), when the machine
// has it (`.ci/run` installs it); otherwise a small HTTP server speaking the part of its API Hookmail
// uses (POST /checkv2), scoring GTUBE as rspamd does. Both answer the same shapes.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { findFreePort } from "@/modules/shared/net/free-port";

export type TestRspamd = { url: string; kind: "rspamd" | "fake"; stop: () => Promise<void> };

export const GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";

function findRspamd(): string | null {
  try {
    return execFileSync("sh", ["-c", "command -v rspamd"], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

export async function startTestRspamd({ dnsServer }: { dnsServer: string }): Promise<TestRspamd> {
  const binary = findRspamd();
  return binary ? startRspamd(binary, dnsServer) : startFakeRspamd();
}

async function startRspamd(binary: string, dnsServer: string): Promise<TestRspamd> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-rspamd-"));
  const [normal, controller, proxy] = [await findFreePort(), await findFreePort(), await findFreePort()];
  const overrides = path.join(root, "conf", "override.d");
  for (const directory of [overrides, path.join(root, "db"), path.join(root, "run"), path.join(root, "log")]) {
    fs.mkdirSync(directory, { recursive: true, mode: 0o777 });
  }
  const write = (name: string, text: string) => fs.writeFileSync(path.join(overrides, name), text);
  write("worker-normal.inc", `bind_socket = "127.0.0.1:${normal}";\ncount = 1;\n`);
  write("worker-controller.inc", `bind_socket = "127.0.0.1:${controller}";\ncount = 1;\n`);
  write("worker-proxy.inc", `bind_socket = "127.0.0.1:${proxy}";\ncount = 1;\n`);
  write("logging.inc", 'type = "console";\nlevel = "error";\n');
  write("options.inc", `dns { nameserver = ["${dnsServer}"]; timeout = 0.5s; retransmits = 0; }\n`);
  const variables = ["LOCAL_CONFDIR=conf", "DBDIR=db", "RUNDIR=run", "LOGDIR=log"].map((pair) => {
    const [name, directory] = pair.split("=") as [string, string];
    return `--var=${name}=${path.join(root, directory)}`;
  });
  const user = os.userInfo();
  const identity = user.uid === 0 ? ["-u", "root", "-g", "root"] : [];
  const child: ChildProcess = spawn(binary, ["-f", "-i", ...identity, ...variables], { stdio: "ignore" });
  const url = `http://127.0.0.1:${normal}`;
  const stop = async () => {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
    fs.rmSync(root, { recursive: true, force: true });
  };
  // A server that never became ready is stopped too: it would otherwise outlive the test run.
  await waitUntilScanning(url, child).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, kind: "rspamd", stop };
}

/**
 * rspamd loads its rules before it forks its workers: about 25 s on a quiet two-core machine, and
 * more than 60 s was seen while other test runs loaded both cores.
 */
export const RSPAMD_START_TIMEOUT_MS = 150_000;

async function waitUntilScanning(url: string, child: ChildProcess) {
  const deadline = Date.now() + RSPAMD_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`rspamd exited with ${child.exitCode}`);
    const answer = await fetch(`${url}/checkv2`, { method: "POST", body: "Subject: ping\r\n\r\nping\r\n" }).catch(() => null);
    if (answer?.ok) return;
    await sleep(250);
  }
  throw new Error(`rspamd did not start scanning within ${RSPAMD_START_TIMEOUT_MS / 1000} s`);
}

async function startFakeRspamd(): Promise<TestRspamd> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/checkv2") {
        response.writeHead(404).end();
        return;
      }
      // rspamd reads decoded text: undo quoted-printable's soft line breaks before looking.
      const isGtube = Buffer.concat(chunks)
        .toString("latin1")
        .replace(/=\r?\n/g, "")
        .includes(GTUBE);
      const answer = isGtube
        ? { is_skipped: true, score: 15, required_score: 15, action: "reject", symbols: { GTUBE: { score: 0 } } }
        : { is_skipped: false, score: 1.5, required_score: 15, action: "no action", symbols: {} };
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    kind: "fake",
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
