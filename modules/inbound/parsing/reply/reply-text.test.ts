import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import EmailReplyParser from "email-reply-parser";
import { extractFrom } from "planer";
import { describe, expect, it } from "vitest";
import { extractReplyText } from "./reply-text";

type Fixture = { name: string; input: string; expected: string };
type Candidate = { name: string; extract: (text: string) => string | null };

const FIXTURES_DIR = path.join(import.meta.dirname, "../../test-support/reply-fixtures");
const ONE_MB = 1024 * 1024;

function loadFixtures(): Fixture[] {
  return readdirSync(FIXTURES_DIR)
    .filter((file) => file.endsWith(".txt") && !file.endsWith(".expected.txt"))
    .sort()
    .map((file) => {
      const name = file.slice(0, -".txt".length);
      const input = readFileSync(path.join(FIXTURES_DIR, file), "utf8");
      const expected = readFileSync(path.join(FIXTURES_DIR, `${name}.expected.txt`), "utf8").trim();
      return { name, input, expected };
    });
}

function withEmailReplyParser(text: string): string {
  return new EmailReplyParser().parseReply(text).trim();
}

function withPlaner(text: string): string {
  return extractFrom(text, "text/plain").trim();
}

function score(candidate: Candidate, fixtures: Fixture[]): number {
  return fixtures.filter((fixture) => candidate.extract(fixture.input) === fixture.expected).length;
}

function timeMs(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const fixtures = loadFixtures();

const candidates: Candidate[] = [
  { name: "email-reply-parser", extract: withEmailReplyParser },
  { name: "planer", extract: withPlaner },
  { name: "extractReplyText (chosen)", extract: extractReplyText },
];

describe("extractReplyText fixtures", () => {
  it("has at least 24 fixtures, each with its expected text", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(24);
  });

  it.each(fixtures.map((fixture) => [fixture.name, fixture] as const))("%s", (_name, fixture) => {
    expect(extractReplyText(fixture.input)).toBe(fixture.expected);
  });

  it("keeps CRLF mail the same as LF mail", () => {
    for (const fixture of fixtures) {
      expect(extractReplyText(fixture.input.replace(/\n/g, "\r\n"))).toBe(fixture.expected);
    }
  });
});

describe("candidate accuracy", () => {
  it("prints N/M per candidate; the chosen one gets every fixture right", () => {
    const results = candidates.map((candidate) => ({ name: candidate.name, correct: score(candidate, fixtures) }));
    for (const result of results) console.log(`reply.text accuracy ${result.name}: ${result.correct}/${fixtures.length}`);
    expect(results[results.length - 1]!.correct).toBe(fixtures.length);
  });
});

describe("extractReplyText edge cases", () => {
  it("returns null for a mail without a text part", () => {
    expect(extractReplyText(null)).toBeNull();
    expect(extractReplyText(undefined)).toBeNull();
  });

  it("returns an empty string for empty or blank text", () => {
    expect(extractReplyText("")).toBe("");
    expect(extractReplyText(" \n\r\n\t")).toBe("");
  });

  it("returns an empty string for a reply that is only a quote", () => {
    expect(extractReplyText("On Mon, 23 Nov 2026 at 10:00, Bob <bob@example.org> wrote:\n> hello\n")).toBe("");
  });

  it.each([
    ["1 MB of quoted lines", "> quoted line of text\n".repeat(ONE_MB / 22)],
    ["one 1 MB line", "a".repeat(ONE_MB)],
    ["one 1 MB line starting like an attribution", `On ${"a, ".repeat(ONE_MB / 3)}`],
    ["1 MB of attribution-like French lines", "Le , Le , a écrit\n".repeat(ONE_MB / 18)],
    ["1 MB of header-like lines", "From: a <a@b>\n".repeat(ONE_MB / 14)],
    ["1 MB of own lines then a quote", `${"text\n".repeat(ONE_MB / 5)}> quote\n`],
  ])("runs in linear time on %s", (_name, input) => {
    let result: string | null = null;
    const elapsed = timeMs(() => {
      result = extractReplyText(input);
    });
    expect(typeof result).toBe("string");
    expect(elapsed).toBeLessThan(1000);
  });
});
