import { createTranslator } from "use-intl/core";
import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import {
  type DomainCheckProblem,
  describeDomainCheckProblems,
  readDomainCheckProblems,
  sayDomainCheckProblem,
} from "./domain-check-problems";

const PROBLEMS: DomainCheckProblem[] = [
  { kind: "notFound", record: "TXT", name: "_hookmail.example.org" },
  { kind: "timedOut", record: "MX", name: "example.org", seconds: 5 },
  { kind: "timedOut", record: "TXT", name: "_hookmail.example.org", seconds: 0.5 },
  { kind: "lookupFailed", record: "MX", name: "example.org", reason: "ESERVFAIL" },
  { kind: "lookupFailed", record: "TXT", name: "_hookmail.example.org", reason: "queryTxt ECONNREFUSED (x)" },
  { kind: "valueMissing", record: "TXT", name: "_hookmail.example.org", value: "hookmail-verification=abc" },
  {
    kind: "wrongHost",
    record: "MX",
    name: "example.org",
    hosts: ["mx1.other.example", "mx2.other.example"],
    expected: "mx.hookmail.example",
  },
];

const translatorOf = (locale: "en" | "fr") => {
  const t = createTranslator({ locale, messages: locale === "en" ? en : fr, namespace: "domains.problems" });
  return (key: Parameters<typeof t>[0], values: Record<string, string | number>) => t(key, values);
};

describe("a domain check's problems (docs/domains.md: Verification)", () => {
  it("says each problem in the API's English words, the problems joined by '; '", () => {
    expect(describeDomainCheckProblems(PROBLEMS.slice(0, 2))).toBe(
      "TXT _hookmail.example.org not found; MX example.org not answered: the DNS lookup timed out after 5 s",
    );
    expect(describeDomainCheckProblems([PROBLEMS[6]!])).toBe(
      "MX example.org points to mx1.other.example, mx2.other.example, not mx.hookmail.example",
    );
  });

  it("reads every kind of problem back from those words, in order", () => {
    expect(readDomainCheckProblems(describeDomainCheckProblems(PROBLEMS))).toEqual(PROBLEMS);
    expect(readDomainCheckProblems(null)).toEqual([]);
    expect(readDomainCheckProblems("")).toEqual([]);
  });

  it("keeps words it does not know as they are", () => {
    expect(readDomainCheckProblems("CNAME example.org not found; something else")).toEqual([
      { kind: "other", text: "CNAME example.org not found" },
      { kind: "other", text: "something else" },
    ]);
  });

  it("says the problems in English as the API does, and in French in French", () => {
    const stored = describeDomainCheckProblems(PROBLEMS);
    const inEnglish = readDomainCheckProblems(stored).map((problem) => sayDomainCheckProblem(problem, translatorOf("en")));
    expect(inEnglish.join("; ")).toBe(stored);
    const inFrench = readDomainCheckProblems(stored).map((problem) => sayDomainCheckProblem(problem, translatorOf("fr")));
    expect(inFrench).toEqual([
      "TXT _hookmail.example.org introuvable",
      "MX example.org sans réponse : la requête DNS n'a pas abouti en 5 s",
      "TXT _hookmail.example.org sans réponse : la requête DNS n'a pas abouti en 0,5 s",
      "MX example.org n'a pas pu être consulté (ESERVFAIL)",
      "TXT _hookmail.example.org n'a pas pu être consulté (queryTxt ECONNREFUSED (x))",
      "TXT _hookmail.example.org ne contient pas hookmail-verification=abc",
      "MX example.org pointe vers mx1.other.example, mx2.other.example et non vers mx.hookmail.example",
    ]);
  });
});
