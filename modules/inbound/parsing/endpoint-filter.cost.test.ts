// What a filter can cost a parsing thread (docs/webhooks.md: Filters): a 1 MiB body against the
// costliest patterns the API accepts, each evaluation (compiling included) in milliseconds. RE2 is
// linear in the text, but each character costs more the more instructions are alive at once, so
// the bounds are on both: what a pattern reads, and how large it may compile
// (modules/endpoints/endpoint-filter.constants.ts). The figures are printed; the assertions are on
// the CPU time of this process, which other work on a shared machine does not inflate.
import { describe, expect, it } from "vitest";
import { FILTER_READ_LIMITS } from "@/modules/endpoints/endpoint-filter.constants";
import { parseEndpointFilter } from "@/modules/endpoints/endpoint-filter.models";
import type { EndpointFilter } from "@/modules/endpoints/endpoint-filter.schemas";
import { compileFilter, type FilterFacts, toFilterFacts } from "./endpoint-filter";
import { parseMail } from "./webhook-payload";

/** A little over 1 MiB, so that the text read is the first 1 MiB whatever the parser makes of line ends. */
const BODY_CHARS = FILTER_READ_LIMITS.textChars + 64 * 1024;
const BOUND_PER_CONDITION_MS = 200;
const BOUND_PER_FILTER_MS = 1000;

/** The same pseudo-random a/b text on every run (a linear congruential generator). */
function randomAb(length: number): string {
  let seed = 1;
  const letters = new Array<string>(length);
  for (let index = 0; index < length; index += 1) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    letters[index] = seed & 0x10000 ? "a" : "b";
  }
  return letters.join("");
}

/** Bodies that keep the most of each pattern alive: random a/b, one letter repeated, and prose. */
const BODIES: Record<string, string> = {
  "random a/b": randomAb(BODY_CHARS),
  "a repeated": "a".repeat(BODY_CHARS),
  "x repeated": "x".repeat(BODY_CHARS),
  prose: "Dear customer, your order 12345 has shipped; total: 42 EUR. Reply to this mail for help.\n"
    .repeat(Math.ceil(BODY_CHARS / 90))
    .slice(0, BODY_CHARS),
};

const pairs = [..."0123456789abcdefghijklmnopqrstuvwxyz"].flatMap((first) => [`${first}a`, `${first}b`]);

/** Catastrophic for a backtracking engine, or costly for RE2 (many instructions alive at once). */
const WORST_PATTERNS = [
  "(a|aa)*b",
  "(x+x+)+y",
  ".*.*.*=.*",
  "(?s)(.*a){20}q",
  "a[ab]{120}c",
  "(?:[ab]{0,30}a){2}c",
  "(\\w+\\s?){20}!",
  `(?:${pairs.join("|")})c`,
  `(?:${Array.from({ length: 15 }, (_, index) => "a".repeat(index + 1)).join("|")})b`,
];

async function factsOfBody(text: string): Promise<FilterFacts> {
  const raw = Buffer.from(`Subject: cost\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${text}\r\n`);
  return toFilterFacts({ parsed: await parseMail(raw), recipient: "a@hookmail.test", authentication: null, spam: null });
}

/** Compiles and evaluates the filter once; answers the CPU and wall-clock milliseconds it took. */
function measure(filter: EndpointFilter, facts: FilterFacts): { cpuMs: number; wallMs: number } {
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  compileFilter(filter)(facts);
  const cpu = process.cpuUsage(cpuBefore);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - wallBefore };
}

describe("the cost of a filter on a 1 MiB body", () => {
  it("accepts every pattern measured here (they are the costliest the API lets in)", () => {
    for (const value of WORST_PATTERNS) {
      expect(
        () => parseEndpointFilter({ match: "all", conditions: [{ field: "text", op: "matches", value }] }),
        value,
      ).not.toThrow();
    }
  });

  it(`evaluates each of them in under ${BOUND_PER_CONDITION_MS} ms of CPU, whatever the body`, { timeout: 120_000 }, async () => {
    const rows: string[] = [];
    let slowest = 0;
    // A first evaluation warms the engine's code up, as a thread that has filtered mail before has.
    compileFilter(parseEndpointFilter({ match: "all", conditions: [{ field: "text", op: "matches", value: "a[ab]{60}c" }] }))(
      await factsOfBody(BODIES["random a/b"]!.slice(0, 65536)),
    );
    for (const [bodyName, body] of Object.entries(BODIES)) {
      const facts = await factsOfBody(body);
      expect(facts.text?.value.length).toBe(FILTER_READ_LIMITS.textChars);
      for (const value of WORST_PATTERNS) {
        const { cpuMs, wallMs } = measure({ match: "all", conditions: [{ field: "text", op: "matches", value }] }, facts);
        slowest = Math.max(slowest, cpuMs);
        rows.push(
          `${bodyName.padEnd(11)} ${value.slice(0, 40).padEnd(41)} cpu ${cpuMs.toFixed(1).padStart(6)} ms  wall ${wallMs.toFixed(1).padStart(6)} ms`,
        );
      }
    }
    console.log(
      `One condition, compiled and evaluated on a 1 MiB body:\n${rows.join("\n")}\nslowest: ${slowest.toFixed(1)} ms of CPU`,
    );
    expect(slowest).toBeLessThan(BOUND_PER_CONDITION_MS);
  });

  it(`evaluates the costliest whole filter (20 conditions, patterns at their joint limit) in under ${BOUND_PER_FILTER_MS} ms of CPU`, {
    timeout: 120_000,
  }, async () => {
    const filter = parseEndpointFilter({
      match: "any",
      conditions: [
        ...Array.from({ length: 4 }, (_, index) => ({ field: "text", op: "matches", value: `a[ab]{${118 + index}}c` })),
        ...Array.from({ length: 16 }, (_, index) => ({ field: "text", op: "contains", value: `absent ${index}` })),
      ],
    });
    const facts = await factsOfBody(BODIES["random a/b"]!);
    const { cpuMs, wallMs } = measure(filter, facts);
    console.log(`The costliest filter on a 1 MiB body: cpu ${cpuMs.toFixed(1)} ms, wall ${wallMs.toFixed(1)} ms`);
    expect(cpuMs).toBeLessThan(BOUND_PER_FILTER_MS);
  });

  it("plain text operators read the whole 1 MiB in milliseconds", async () => {
    const facts = await factsOfBody(BODIES.prose!);
    const { cpuMs } = measure({ match: "all", conditions: [{ field: "text", op: "contains", value: "no such words" }] }, facts);
    console.log(`contains on a 1 MiB body: cpu ${cpuMs.toFixed(1)} ms`);
    expect(cpuMs).toBeLessThan(50);
  });
});
