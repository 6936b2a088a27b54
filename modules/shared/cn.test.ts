import fs from "node:fs";
import path from "node:path";
import { getDefaultConfig, twMerge } from "tailwind-merge";
import { createClassGroupLookup } from "tailwind-merge/unstable-do-not-import";
import { describe, expect, it } from "vitest";
import { cn, mergeClasses } from "./cn";
import { getTailwindMergeConfig } from "./tailwind-merge-config";

// cn() runs tailwind-merge with a configuration limited to the app's class groups
// (tailwind-merge-config.ts). These tests take every class token written in the sources and check
// that it merges exactly as with tailwind-merge's default configuration, alone and in every ordered
// pair. Pairs are enough: merging drops a class when a later kept class has its group (with the same
// variants) or a group in conflict with it, so a list of any length merges alike once every ordered
// pair does.

const projectDir = path.resolve(import.meta.dirname, "../..");
const SOURCE_DIRS = ["app", "components", "modules"];
const CONFIG_FILE = path.join(projectDir, "modules/shared/tailwind-merge-config.ts");
/** Strings of the sources that look like classes but are data (a processing's error code). */
const NOT_CLASS_NAMES = new Set(["from-address-not-allowed"]);

function listSourceFiles(dir: string, files: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "generated" && entry.name !== "node_modules") listSourceFiles(file, files);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && file !== CONFIG_FILE) {
      files.push(file);
    }
  }
  return files;
}

/** The text of every string literal and template-literal part of a TS/TSX source (comments skipped). */
function readStringLiterals(source: string): string[] {
  const strings: string[] = [];
  const templateBraceDepths: number[] = [];
  let braceDepth = 0;
  let i = 0;
  // Reads a template literal's text from i up to its end or its next `${`.
  const readTemplatePart = () => {
    let text = "";
    while (i < source.length) {
      const char = source[i];
      if (char === "\\") {
        text += source.slice(i, i + 2);
        i += 2;
      } else if (char === "`") {
        i++;
        break;
      } else if (char === "$" && source[i + 1] === "{") {
        i += 2;
        templateBraceDepths.push(braceDepth++);
        break;
      } else {
        text += char;
        i++;
      }
    }
    strings.push(text);
  };
  while (i < source.length) {
    const char = source[i];
    if (char === "/" && source[i + 1] === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (char === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      i = end < 0 ? source.length : end + 2;
    } else if (char === '"' || char === "'") {
      let text = "";
      i++;
      while (i < source.length && source[i] !== char && source[i] !== "\n") {
        const length = source[i] === "\\" ? 2 : 1;
        text += source.slice(i, i + length);
        i += length;
      }
      i++;
      strings.push(text);
    } else if (char === "`") {
      i++;
      readTemplatePart();
    } else if (char === "{") {
      braceDepth++;
      i++;
    } else if (char === "}") {
      braceDepth--;
      i++;
      if (templateBraceDepths.at(-1) === braceDepth) {
        templateBraceDepths.pop();
        readTemplatePart();
      }
    } else {
      i++;
    }
  }
  return strings;
}

/** Every whitespace-separated token of the sources' strings: class names, variants and arbitrary values included. */
function collectSourceTokens(): string[] {
  const tokens = new Set<string>();
  for (const dir of SOURCE_DIRS) {
    for (const file of listSourceFiles(path.join(projectDir, dir))) {
      for (const text of readStringLiterals(fs.readFileSync(file, "utf8"))) {
        for (const token of text.split(/\s+/)) {
          if (token && !/[,;.]$/.test(token) && !NOT_CLASS_NAMES.has(token)) tokens.add(token);
        }
      }
    }
  }
  return [...tokens];
}

const tokens = collectSourceTokens();
/** The tokens tailwind-merge's default configuration knows as classes: a repeated one is dropped. */
const tailwindClasses = tokens.filter((token) => twMerge(`${token} ${token}`) === token);

describe("cn", () => {
  it("joins conditional classes and lets a later class override a conflicting one", () => {
    expect(cn("px-2 py-1", false && "hidden", { "text-sm": true }, "p-4")).toBe("text-sm p-4");
    expect(cn("bg-primary hover:bg-primary/90", "bg-destructive")).toBe("hover:bg-primary/90 bg-destructive");
  });

  it("finds the classes written in the sources", () => {
    expect(tailwindClasses.length).toBeGreaterThan(300);
    expect(tailwindClasses).toEqual(
      expect.arrayContaining([
        "flex",
        "hover:bg-primary/90",
        "-mx-1",
        "data-[state=checked]:border-primary",
        "aria-invalid:border-destructive",
      ]),
    );
  });
});

describe("the light tailwind-merge configuration", () => {
  it("merges every token of the sources, alone and repeated, as the default configuration does", () => {
    const differing = tokens.filter(
      (token) => mergeClasses(token) !== twMerge(token) || mergeClasses(`${token} ${token}`) !== twMerge(`${token} ${token}`),
    );
    expect(differing).toEqual([]);
  });

  // A quarter of a million merges on each side: a few seconds, more on a busy machine. Its bound
  // is a hang guard, not a speed goal.
  it("merges every ordered pair of the sources' classes as the default configuration does", { timeout: 60_000 }, () => {
    const differing: string[] = [];
    for (const first of tailwindClasses) {
      for (const second of tailwindClasses) {
        const pair = `${first} ${second}`;
        if (mergeClasses(pair) !== twMerge(pair)) differing.push(pair);
      }
    }
    expect(differing.slice(0, 20)).toEqual([]);
  });

  // tailwind-merge's tooling entry point (pinned version): the class groups a merge looks up for a class.
  const lookUpGroups = createClassGroupLookup(getTailwindMergeConfig());

  it("puts every class of the sources in the class group the default configuration puts it in", () => {
    const lookUpDefaultGroups = createClassGroupLookup(getDefaultConfig());
    const misplaced = tailwindClasses.filter(
      (token) => JSON.stringify(lookUpGroups(token)) !== JSON.stringify(lookUpDefaultGroups(token)),
    );
    expect(misplaced).toEqual([]);
  });

  it("lists only class groups that some class of the sources belongs to", () => {
    const usedGroups = new Set(tailwindClasses.flatMap((token) => lookUpGroups(token).map((match) => match.classGroupId)));
    expect(Object.keys(getTailwindMergeConfig().classGroups).filter((group) => !usedGroups.has(group))).toEqual([]);
  });
});
