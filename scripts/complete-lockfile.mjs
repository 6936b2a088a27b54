// Completes package-lock.json with the platform-specific optional packages (other operating
// systems' builds of next's SWC, tailwind's oxide, esbuild, …) that the npm registry these
// machines reach does not serve. Without their entries, `npm ci` refuses the lock as out of sync;
// with them, npm skips each one on this platform (os/cpu mismatch) or, if it cannot fetch one,
// treats it as the optional dependency it is. Run after changing dependencies:
//   npm install && node scripts/complete-lockfile.mjs
import fs from "node:fs";

const LOCKFILE = new URL("../package-lock.json", import.meta.url);
const OS_NAMES = ["darwin", "linux", "win32", "freebsd", "openbsd", "netbsd", "android", "sunos", "aix"];
const CPU_PATTERNS = [
  ["arm64", /arm64|aarch64/],
  ["x64", /x64|x86_64|amd64/],
  ["ia32", /ia32|x86(?!_64)/],
  ["arm", /(^|-)arm(-|$|v7|eabi|hf)/],
  ["ppc64", /ppc64/],
  ["s390x", /s390x/],
  ["riscv64", /riscv64/],
  ["loong64", /loong64/],
  ["mips64el", /mips64el/],
  ["wasm32", /wasm32/],
];

function inferPlatform(name) {
  const base = name.split("/").pop();
  const os = OS_NAMES.find((candidate) => base.split("-").includes(candidate));
  const cpu = CPU_PATTERNS.find(([, pattern]) => pattern.test(base))?.[0];
  const libc = /musl/.test(base) ? "musl" : /gnu/.test(base) && os === "linux" ? "glibc" : undefined;
  return {
    ...(os ? { os: [os] } : {}),
    ...(cpu && cpu !== "wasm32" ? { cpu: [cpu] } : {}),
    ...(cpu === "wasm32" ? { cpu: ["wasm32"] } : {}),
    ...(libc ? { libc: [libc] } : {}),
  };
}

const lock = JSON.parse(fs.readFileSync(LOCKFILE, "utf8"));
const packages = lock.packages;
let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ""}node_modules/${name}`;
    const topLevel = `node_modules/${name}`;
    if (packages[nested] || packages[topLevel]) continue;
    packages[topLevel] = { version, dev: entry.dev, optional: true, ...inferPlatform(name) };
    if (!packages[topLevel].dev) delete packages[topLevel].dev;
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(LOCKFILE, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added > 0 ? `Added ${added} optional platform package(s) to package-lock.json.` : "package-lock.json is complete.");
