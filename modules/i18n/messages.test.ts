// The catalogues stay complete: fr has exactly en's keys, no value is empty, and every en key is
// used by some code (by its full path, or by its last part inside a translator bound to its
// namespace, or under a dynamic prefix such as t(`error.${code}`)).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { ERROR_HTTP_STATUSES } from "@/modules/shared/errors/error-codes";

type Catalogue = { [key: string]: string | Catalogue };

function flattenKeys(catalogue: Catalogue, prefix = ""): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const fullKey = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") keys.set(fullKey, value);
    else for (const [nestedKey, nestedValue] of flattenKeys(value, fullKey)) keys.set(nestedKey, nestedValue);
  }
  return keys;
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCE_DIRS = ["app", "modules", "components"];

function readSources(): string[] {
  const sources: string[] = [];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "generated" && entry.name !== "node_modules") visit(full);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        sources.push(fs.readFileSync(full, "utf8"));
      }
    }
  };
  for (const dir of SOURCE_DIRS) visit(path.join(ROOT, dir));
  return sources;
}

function findUsage(sources: string[]) {
  const literals = new Set<string>();
  const namespaces = new Set<string>([""]);
  const dynamicPrefixes = new Set<string>();
  for (const source of sources) {
    for (const match of source.matchAll(/["'`]([A-Za-z0-9_.-]+)["'`]/g)) literals.add(match[1] ?? "");
    for (const match of source.matchAll(
      /(?:useTranslations|getTranslations)\(\s*(?:\{\s*namespace:\s*)?["']([A-Za-z0-9_.]+)["']/g,
    )) {
      namespaces.add(match[1] ?? "");
    }
    for (const match of source.matchAll(/`([A-Za-z0-9_.]+\.)\$\{/g)) dynamicPrefixes.add(match[1] ?? "");
  }
  return { literals, namespaces, dynamicPrefixes };
}

const enKeys = flattenKeys(en);
const frKeys = flattenKeys(fr);

describe("message catalogues", () => {
  it("fr has every key of en", () => {
    expect([...enKeys.keys()].filter((key) => !frKeys.has(key))).toEqual([]);
  });

  it("fr has no key that en lacks", () => {
    expect([...frKeys.keys()].filter((key) => !enKeys.has(key))).toEqual([]);
  });

  it("fr says e-mail for an email message, never mail", () => {
    const saysMail = [...frKeys].filter(([, value]) => /(?<![-_\p{L}])mails?(?![-_\p{L}])/iu.test(value)).map(([key]) => key);
    expect(saysMail).toEqual([]);
  });

  it("no message is empty", () => {
    const empty = [...enKeys, ...frKeys].filter(([, value]) => value.trim() === "").map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it("every en key is used by the code", () => {
    const { literals, namespaces, dynamicPrefixes } = findUsage(readSources());
    const isUsed = (key: string) =>
      literals.has(key) ||
      [...namespaces].some(
        (namespace) => namespace && key.startsWith(`${namespace}.`) && literals.has(key.slice(namespace.length + 1)),
      ) ||
      [...namespaces].some((namespace) =>
        [...dynamicPrefixes].some((prefix) => key.startsWith(namespace ? `${namespace}.${prefix}` : prefix)),
      );
    expect([...enKeys.keys()].filter((key) => !isUsed(key))).toEqual([]);
  });

  it("has a message, in en and fr, for every error code of the API, a network failure and an unknown error", () => {
    const codes = [...Object.keys(ERROR_HTTP_STATUSES), "network.unreachable", "unknown"];
    expect(codes.filter((code) => !enKeys.has(`apiErrors.${code}`) || !frKeys.has(`apiErrors.${code}`))).toEqual([]);
  });
});
