// Versions are pinned exactly (README: Under the hood): package.json names one version of each
// package, no range, and package-lock.json installs that very version, so `npm ci` on any machine
// gets what the tests ran against.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const DEPENDENCY_SECTIONS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;
/** One exact version: major.minor.patch, with an optional pre-release and build (e.g. 18.4.0-beta.17). */
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

type Manifest = Partial<Record<(typeof DEPENDENCY_SECTIONS)[number], Record<string, string>>>;

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as T;
}

const manifest = readJson<Manifest>("package.json");
const lock = readJson<{ packages: Record<string, Manifest & { version?: string }> }>("package-lock.json");

function pins(sections: Manifest): [string, string, string][] {
  return DEPENDENCY_SECTIONS.flatMap((section) =>
    Object.entries(sections[section] ?? {}).map(([name, version]): [string, string, string] => [section, name, version]),
  );
}

describe("the dependencies (README: Under the hood)", () => {
  it("are each pinned to one exact version in package.json, no range", () => {
    const ranges = pins(manifest)
      .filter(([, , version]) => !EXACT_VERSION.test(version))
      .map(([section, name, version]) => `${section}: ${name} ${version}`);
    expect(ranges).toEqual([]);
  });

  it("are recorded in package-lock.json's root entry as in package.json", () => {
    const root = lock.packages[""]!;
    for (const section of DEPENDENCY_SECTIONS) expect(root[section] ?? {}, section).toEqual(manifest[section] ?? {});
  });

  it("are installed by package-lock.json at the very version package.json names", () => {
    const mismatches = pins(manifest)
      .filter(([, name, version]) => lock.packages[`node_modules/${name}`]?.version !== version)
      .map(([, name, version]) => `${name}: ${version} pinned, ${lock.packages[`node_modules/${name}`]?.version} locked`);
    expect(mismatches).toEqual([]);
  });
});
