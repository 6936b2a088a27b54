// Whether `npm start` must build the app again, and why (README: Run it). A build
// depends on its sources (app, components, modules, messages, public, proxy.ts; their tests left
// out), the configuration files, the lockfile, and the few environment variables Next.js writes
// into the bundles at build time: the NEXT_PUBLIC_* variables the sources read as
// `process.env.NEXT_PUBLIC_…` (Next inlines those; Hookmail's own settings, analytics included,
// are read at request time) and whatever next.config.ts reads, with NEXT_DEPLOYMENT_ID. A build
// made by `npm start` records a hash of each of these in .next; the next start compares, and
// builds again only when one differs, naming it. Any other variable (AUTH_SECRET, PORT, …) never
// causes a build. A build made another way (`npm run build`) has no record: its sources are
// then compared by modification time with the build's, and variables cannot be compared.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Where `npm start` records what its last build was made from. */
export const BUILD_RECORD_FILE = path.join(".next", "hookmail-build.json");
const BUILD_ID_FILE = path.join(".next", "BUILD_ID");
const SOURCE_DIRECTORIES = ["app", "components", "modules", "messages", "public"];
const CONFIG_FILES = ["proxy.ts", "next.config.ts", "postcss.config.mjs", "tsconfig.json", "package.json", "package-lock.json"];
const NEXT_CONFIG_FILE = "next.config.ts";
/** Read by Next.js itself at build time (the deployment id is written into the client bundles). */
const NEXT_BUILD_VARIABLES = ["NEXT_DEPLOYMENT_ID"];
const TEST_FILE = /\.test\.tsx?$/;
const INLINED_VARIABLE = /process\.env(?:\.|\[["'])(NEXT_PUBLIC_[A-Za-z0-9_]+)/g;
const CONFIG_VARIABLE = /process\.env(?:\.|\[["'])([A-Za-z_][A-Za-z0-9_]*)/g;
/** How many changed files a reason names before "and N more". */
const NAMED_FILES = 3;

export type BuildInputs = {
  /** sha256 of each source and configuration file, by its path from the project directory. */
  sources: Record<string, string>;
  /** sha256 of each variable the build inlines, null when unset. */
  environment: Record<string, string | null>;
};

function listSourceFiles(projectDir: string): string[] {
  const walk = (relative: string): string[] => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(projectDir, relative), { withFileTypes: true });
    } catch {
      return [];
    }
    return entries.flatMap((entry) => {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) return [];
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) return walk(child);
      return entry.isFile() && !TEST_FILE.test(entry.name) ? [child] : [];
    });
  };
  const configFiles = CONFIG_FILES.filter((file) => fs.existsSync(path.join(projectDir, file)));
  return [...SOURCE_DIRECTORIES.flatMap(walk), ...configFiles].sort();
}

const hash = (content: string | Buffer) => createHash("sha256").update(content).digest("hex");

/** What a build of `projectDir` made now, in `environment`, would be made from. */
export function readBuildInputs(projectDir: string, environment: Record<string, string | undefined>): BuildInputs {
  const sources: Record<string, string> = {};
  const variables = new Set(NEXT_BUILD_VARIABLES);
  for (const file of listSourceFiles(projectDir)) {
    const content = fs.readFileSync(path.join(projectDir, file));
    sources[file] = hash(content);
    const pattern = file === NEXT_CONFIG_FILE ? CONFIG_VARIABLE : INLINED_VARIABLE;
    for (const match of content.toString("utf8").matchAll(pattern)) variables.add(match[1]!);
  }
  const inlined: Record<string, string | null> = {};
  for (const name of [...variables].sort()) {
    const value = environment[name];
    inlined[name] = value === undefined ? null : hash(`${name}=${value}`);
  }
  return { sources, environment: inlined };
}

function readBuildRecord(projectDir: string): BuildInputs | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(projectDir, BUILD_RECORD_FILE), "utf8")) as BuildInputs;
  } catch {
    return null;
  }
}

/** Records what the build just made in `projectDir` was made from (call after it succeeded). */
export function writeBuildRecord(projectDir: string, inputs: BuildInputs) {
  fs.writeFileSync(path.join(projectDir, BUILD_RECORD_FILE), `${JSON.stringify(inputs)}\n`);
}

const nameFiles = (files: string[]) =>
  files.length > NAMED_FILES
    ? `${files.slice(0, NAMED_FILES).join(", ")} and ${files.length - NAMED_FILES} more`
    : files.join(", ");

/** What differs between two sets of inputs, in words; empty when nothing does. */
export function describeChanges(built: BuildInputs, current: BuildInputs): string[] {
  const reasons: string[] = [];
  const files = [...new Set([...Object.keys(built.sources), ...Object.keys(current.sources)])].sort();
  const changed = files.filter((file) => built.sources[file] !== current.sources[file]);
  if (changed.length > 0) reasons.push(`the sources changed (${nameFiles(changed)})`);
  const names = [...new Set([...Object.keys(built.environment), ...Object.keys(current.environment)])].sort();
  for (const name of names) {
    const before = built.environment[name] ?? null;
    const now = current.environment[name] ?? null;
    if (before === now) continue;
    reasons.push(before === null ? `${name} was set` : now === null ? `${name} was unset` : `${name} changed`);
  }
  return reasons;
}

function findNewerSourceFiles(projectDir: string, than: number): string[] {
  return listSourceFiles(projectDir).filter((file) => fs.statSync(path.join(projectDir, file)).mtimeMs > than);
}

/**
 * Why the app must be built before it is served, or null when its production build is current.
 * `current` is what a build now would be made from (readBuildInputs), read once by the caller.
 */
export function findRebuildReason(projectDir: string, current: BuildInputs): string | null {
  const buildIdFile = path.join(projectDir, BUILD_ID_FILE);
  if (!fs.existsSync(buildIdFile)) return "no production build yet";
  const record = readBuildRecord(projectDir);
  if (record) {
    const changes = describeChanges(record, current);
    return changes.length > 0 ? changes.join("; ") : null;
  }
  const newer = findNewerSourceFiles(projectDir, fs.statSync(buildIdFile).mtimeMs);
  return newer.length > 0 ? `the sources changed since the last build (${nameFiles(newer)})` : null;
}
