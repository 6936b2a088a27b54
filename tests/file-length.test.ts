// The 300-line guideline (docs/architecture.md: The parts): a product file that grows past it is
// doing several things and is split. Tests, their support, generated code and the vendored UI
// primitives of components/ui (shadcn/ui) are left out.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_LINES = 300;
const SKIPPED_DIRECTORIES = new Set(["node_modules", "generated", ".next", "test-support"]);

function listProductFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRECTORIES.has(entry.name) ? [] : listProductFiles(file);
    return /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

it(`has no product file over ${MAX_LINES} lines`, () => {
  const files = ["app", "modules", "scripts"].flatMap((directory) => listProductFiles(path.join(ROOT, directory)));
  expect(files.length).toBeGreaterThan(100);
  const long = files
    .map((file) => ({ file: path.relative(ROOT, file), lines: fs.readFileSync(file, "utf8").split("\n").length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES);
  expect(long).toEqual([]);
});
