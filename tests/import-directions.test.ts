// Import directions (docs/architecture.md: Directions): no file imports itself back through others,
// no two features import each other, neither modules/shared nor components/ (the UI primitives
// and what is built on them alone) imports a feature, and the parsing threads' code
// (modules/inbound/parsing) reaches nothing of the pipeline, and sonner is imported only by the
// shadcn toaster and the toasts loaded on demand (docs/architecture.md, Decisions and their reasons:
// page weight). Type-only and dynamic imports count: they are dependencies as much as the others.
// Tests are left out (a test may reach anywhere).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE_DIRECTORIES = ["modules", "app", "components", "scripts"];
const SKIPPED_DIRECTORIES = new Set(["node_modules", "generated", ".next"]);

function listSourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRECTORIES.has(entry.name) ? [] : listSourceFiles(file);
    const isSource = /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts");
    return isSource ? [file] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")];
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile()) ?? null;
}

/** Every source file (relative to the project) and the specifiers it imports, as written. */
function readImports(): Map<string, string[]> {
  const files = SOURCE_DIRECTORIES.flatMap((directory) => listSourceFiles(path.join(ROOT, directory)));
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
      return [path.relative(ROOT, file), importedFiles.map(({ fileName }) => fileName)];
    }),
  );
}

/** Every source file and the source files it imports (relative to the project). */
function buildImportGraph(imports: Map<string, string[]>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [file, specifiers] of imports) {
    const targets = specifiers
      .map((specifier) => resolveImport(path.join(ROOT, file), specifier))
      .filter((target): target is string => target !== null)
      .map((target) => path.relative(ROOT, target));
    graph.set(file, new Set(targets));
  }
  return graph;
}

/** The source files that import the package `name` (or a path inside it). */
function findImportersOf(imports: Map<string, string[]>, name: string): string[] {
  const isPackage = (specifier: string) => specifier === name || specifier.startsWith(`${name}/`);
  return [...imports].filter(([, specifiers]) => specifiers.some(isPackage)).map(([file]) => file);
}

/** The groups of nodes that reach each other (strongly connected components of more than one node). */
function findCycles(graph: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    order.set(node, counter);
    lowest.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        lowest.set(node, Math.min(lowest.get(node)!, lowest.get(next)!));
      } else if (onStack.has(next)) {
        lowest.set(node, Math.min(lowest.get(node)!, order.get(next)!));
      }
    }
    if (lowest.get(node) !== order.get(node)) return;
    const cycle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      cycle.push(member);
    } while (member !== node);
    if (cycle.length > 1) cycles.push(cycle.sort());
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return cycles;
}

const featureOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1] ?? null;

const PARSING_DIRECTORY = "modules/inbound/parsing/";
/** The pipeline: the rest of modules/inbound, the database, the delivery dispatcher. */
const isPipeline = (file: string) =>
  (file.startsWith("modules/inbound/") && !file.startsWith(PARSING_DIRECTORY)) ||
  file.startsWith("modules/db/") ||
  file.startsWith("modules/delivery/");

/**
 * The pipeline files that the parsing files reach through their imports, each with the shortest chain
 * of imports from a parsing file (that stops at the first pipeline file).
 */
function findPipelineReached(graph: Map<string, Set<string>>): string[] {
  const chains = new Map<string, string[]>();
  const queue = [...graph.keys()].filter((file) => file.startsWith(PARSING_DIRECTORY));
  for (const file of queue) chains.set(file, [file]);
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    for (const next of graph.get(current) ?? []) {
      if (chains.has(next)) continue;
      chains.set(next, [...chains.get(current)!, next]);
      if (!isPipeline(next)) queue.push(next);
    }
  }
  return [...chains].filter(([file]) => isPipeline(file)).map(([, chain]) => chain.join(" -> "));
}

const imports = readImports();
const graph = buildImportGraph(imports);

describe("import directions", () => {
  it("reads the project's sources", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get("modules/inbound/inbound.usecases.ts")).toContain("modules/processings/processings.constants.ts");
    expect(graph.get("components/ui/button.tsx")).toContain("modules/shared/cn.ts");
  });

  it("has no import cycle between files", () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it("has no two features importing each other", () => {
    const features = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const feature = featureOf(file);
      if (!feature) continue;
      for (const target of targets) {
        const other = featureOf(target);
        if (!other || other === feature) continue;
        features.set(feature, (features.get(feature) ?? new Set()).add(other));
      }
    }
    expect(findCycles(features)).toEqual([]);
  });

  it.each(["modules/shared/", "components/"])("has %s import no feature", (directory) => {
    const sharedImports = [...graph].flatMap(([file, targets]) =>
      file.startsWith(directory)
        ? [...targets]
            .filter((target) => featureOf(target) !== null && featureOf(target) !== "shared")
            .map((target) => `${file} -> ${target}`)
        : [],
    );
    expect(sharedImports).toEqual([]);
  });

  it("has sonner imported only by the shadcn toaster and the toasts loaded on demand (docs/architecture.md: page weight)", () => {
    expect(findImportersOf(imports, "sonner").sort()).toEqual([
      "components/ui/sonner.tsx",
      "modules/shared/components/toasts-on-demand.tsx",
    ]);
  });

  it("has the parsing threads' code reach nothing of the pipeline (docs/architecture.md: Directions)", () => {
    expect(graph.has("modules/inbound/parsing/parse-worker.ts")).toBe(true);
    expect(findPipelineReached(graph)).toEqual([]);
  });
});
