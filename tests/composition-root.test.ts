// One composition root (docs/architecture.md: The parts): the process's services are made in
// modules/server/services.ts and kept, for the route handlers Next bundles apart, under one key on
// globalThis (modules/server/process-services.ts). No other product file keeps a value for the
// whole process: none touches globalThis or a Symbol.for key, none declares a module-level `let`
// (the browser's own state, in "use client" files, and a parsing thread's own state aside).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE_DIRECTORIES = ["modules", "app", "bin", "scripts"];
const SOURCE_FILES = ["proxy.ts", "server.ts"];
const SKIPPED_DIRECTORIES = new Set(["node_modules", "generated", ".next", "test-support", "fixtures"]);
const ACCESSOR = "modules/server/process-services.ts";
/** A global a library asks for by name (Prisma's schema engine reports panics through it), in a one-off script. */
const LIBRARY_GLOBALS = new Set(["scripts/db-new.ts"]);
/** The state of one parsing thread (its worker instance), not of the process. */
const THREAD_FILES = new Set(["modules/inbound/parse-worker.mjs", "modules/inbound/parsing/parse-worker.mjs"]);

function listSourceFiles(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRECTORIES.has(entry.name) ? [] : listSourceFiles(file);
    const isSource = /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts");
    return isSource ? [file] : [];
  });
}

const files = [
  ...SOURCE_DIRECTORIES.flatMap((directory) => listSourceFiles(path.join(ROOT, directory))),
  ...SOURCE_FILES.map((file) => path.join(ROOT, file)),
].map((file) => ({ name: path.relative(ROOT, file), text: fs.readFileSync(file, "utf8") }));

/** The code of a file without its comments (a comment may name globalThis to explain why it is not used). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

describe("one composition root", () => {
  it("reads the product's sources", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map(({ name }) => name)).toContain(ACCESSOR);
  });

  it("keeps the process's services under one key, in one file", () => {
    const offenders = files
      .filter(({ name }) => name !== ACCESSOR && !LIBRARY_GLOBALS.has(name))
      .filter(({ text }) => /\bglobalThis\b|\bSymbol\.for\(|\bprocessSingleton\b/.test(withoutComments(text)))
      .map(({ name }) => name);
    expect(offenders).toEqual([]);
    expect(withoutComments(files.find(({ name }) => name === ACCESSOR)!.text).match(/Symbol\.for\(/g)).toHaveLength(1);
  });

  it("has no module-level `let` outside browser code and the parsing threads", () => {
    const offenders = files
      .filter(({ name, text }) => !THREAD_FILES.has(name) && !/^\s*["']use client["']/.test(text))
      .filter(({ name }) => !name.startsWith("scripts/") && !name.startsWith("bin/"))
      .flatMap(({ name, text }) =>
        withoutComments(text)
          .split("\n")
          .filter((line) => /^let\s/.test(line))
          .map((line) => `${name}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });
});
