// The 300-line guideline (docs/architecture.md: The parts): a product file that grows past it is
// doing several things and is split. Every directory of the project's own code is measured; left out
// are tests, their support, generated code and the primitives of components/ui, which are shadcn/ui's
// as its CLI writes them (not the project's code to split).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_LINES = 300;
/** The directories of the project's own code, at the root. */
const PRODUCT_DIRECTORIES = ["app", "bin", "components", "integrations", "modules", "scripts"];
/** The other directories with code: the tests and the benchmarks, code that measures the product. */
const NOT_PRODUCT_DIRECTORIES = ["bench", "tests"];
const SKIPPED_DIRECTORIES = new Set(["node_modules", "generated", ".next", "test-support"]);
const VENDORED_DIRECTORY = path.join(ROOT, "components", "ui");
const CODE_FILE = /\.(ts|tsx|mjs|js)$/;
/**
 * The names of shadcn/ui's primitives (its registry): components/ui holds nothing else, so that
 * leaving it out leaves out no code of the project's own.
 */
const SHADCN_PRIMITIVES = new Set(
  [
    "accordion alert alert-dialog aspect-ratio avatar badge breadcrumb button button-group calendar card carousel",
    "chart checkbox collapsible combobox command context-menu dialog drawer dropdown-menu empty field form",
    "hover-card input input-group input-otp item kbd label menubar native-select navigation-menu pagination",
    "popover progress radio-group resizable scroll-area select separator sheet sidebar skeleton slider sonner",
    "spinner switch table tabs textarea toggle toggle-group tooltip",
  ]
    .join(" ")
    .split(" "),
);

const isTest = (name: string) => /\.test\.tsx?$/.test(name);

function listProductFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      return SKIPPED_DIRECTORIES.has(entry.name) || file === VENDORED_DIRECTORY ? [] : listProductFiles(file);
    }
    return CODE_FILE.test(entry.name) && !isTest(entry.name) && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

/** Whether a directory holds code, at any depth. */
function hasCode(directory: string): boolean {
  return fs
    .readdirSync(directory, { withFileTypes: true })
    .some((entry) =>
      entry.isDirectory()
        ? !SKIPPED_DIRECTORIES.has(entry.name) && hasCode(path.join(directory, entry.name))
        : CODE_FILE.test(entry.name),
    );
}

const rootEntries = fs.readdirSync(ROOT, { withFileTypes: true }).filter((entry) => !entry.name.startsWith("."));

describe("file length", () => {
  it(`has no product file over ${MAX_LINES} lines`, () => {
    const rootFiles = rootEntries
      .filter((entry) => entry.isFile() && CODE_FILE.test(entry.name) && !isTest(entry.name))
      .map((entry) => path.join(ROOT, entry.name));
    const files = [...rootFiles, ...PRODUCT_DIRECTORIES.flatMap((directory) => listProductFiles(path.join(ROOT, directory)))];
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(path.join(ROOT, "server.ts"));
    const long = files
      .map((file) => ({ file: path.relative(ROOT, file), lines: fs.readFileSync(file, "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it("measures every directory of code except the tests and the benchmarks", () => {
    const directoriesWithCode = rootEntries
      .filter((entry) => entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name) && hasCode(path.join(ROOT, entry.name)))
      .map((entry) => entry.name);
    expect(
      directoriesWithCode.filter((name) => !PRODUCT_DIRECTORIES.includes(name) && !NOT_PRODUCT_DIRECTORIES.includes(name)),
    ).toEqual([]);
  });

  it("leaves out only shadcn/ui's primitives (and their tests) in components/ui", () => {
    const notShadcn = fs
      .readdirSync(VENDORED_DIRECTORY)
      .filter((name) => !SHADCN_PRIMITIVES.has(name.replace(/(\.test)?\.tsx?$/, "")) || !/\.tsx$/.test(name));
    expect(notShadcn).toEqual([]);
  });
});
