// Before the browser tests (`npm run test:e2e`, part of `npm test`): Playwright cannot download its
// own browsers here, so the tests drive the machine's Chromium (CHROMIUM_PATH, default
// /usr/bin/chromium). When it is missing, root on a Debian-like machine gets Debian's package
// installed (as .ci/run does); anyone else gets one line naming what is missing and how to install
// it, and the tests do not start.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { pathToFileURL } from "node:url";

export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";
const PACKAGES = ["chromium", "fonts-dejavu-core"];

/** What to do, from what the machine has: nothing, install Debian's package, or stop with a message. */
export function planBrowserSetup({ chromiumPath, isExecutable, isRoot, hasAptGet, isDefaultPath }) {
  if (isExecutable) return { action: "ready" };
  if (isDefaultPath && isRoot && hasAptGet) return { action: "install", packages: PACKAGES };
  const how = hasAptGet
    ? `sudo apt-get install ${PACKAGES.join(" ")}`
    : "install Chromium or Chrome and set CHROMIUM_PATH to its binary";
  return {
    action: "stop",
    message: `The browser tests need Chromium at ${chromiumPath}, which is missing: ${how}${isDefaultPath ? "" : " (or unset CHROMIUM_PATH to use /usr/bin/chromium)"}.`,
  };
}

function isExecutableFile(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function main() {
  const chromiumPath = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
  const plan = planBrowserSetup({
    chromiumPath,
    isExecutable: isExecutableFile(chromiumPath),
    isRoot: typeof process.getuid === "function" && process.getuid() === 0,
    hasAptGet: spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0,
    isDefaultPath: chromiumPath === DEFAULT_CHROMIUM_PATH,
  });
  if (plan.action === "ready") return 0;
  if (plan.action === "stop") {
    console.error(plan.message);
    return 1;
  }
  console.error(`Installing Debian's ${plan.packages.join(" and ")} for the browser tests (first run only)…`);
  const environment = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", ...plan.packages],
  ]) {
    const result = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env: environment });
    if (result.status !== 0) {
      console.error(
        `apt-get ${args[0]} failed (exit ${result.status}): install ${plan.packages.join(" ")} yourself, then run the tests again.`,
      );
      return 1;
    }
  }
  if (isExecutableFile(chromiumPath)) return 0;
  console.error(`Debian's chromium was installed, but ${chromiumPath} is still missing: set CHROMIUM_PATH to its binary.`);
  return 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exit(main());
