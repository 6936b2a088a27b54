// The `matches` operator's engine: RE2's syntax and linear-time matching (re2js, a JavaScript port
// of RE2: no backtracking, so no pattern can take exponential time), ignoring case. The same
// function checks a pattern when a filter is saved and compiles it where mail is filtered, so what
// was accepted is what runs (docs/webhooks.md: Filters). Never JavaScript's RegExp for a user's pattern.
import { RE2JS, RE2Set } from "re2js";
import { FILTER_PATTERN_DFA_BYTES, FILTER_PATTERN_MAX_INSTRUCTIONS } from "./endpoint-filter.constants";

export type FilterPattern = {
  /** Whether the pattern is found anywhere in the value (`^` and `$` anchor to its ends). */
  test(value: string): boolean;
  /** The size of its compiled program, which bounds what each character costs. */
  instructions: number;
};

/** Why a pattern cannot be used, in words for the API's message; null when it can. */
export type FilterPatternProblem = { reason: "syntax" | "too_complex"; message: string };

type Compiled = { pattern: FilterPattern; problem: null } | { pattern: null; problem: FilterPatternProblem };

/** Compiles a `matches` pattern, or says why it cannot be used. */
export function tryCompileFilterPattern(source: string): Compiled {
  let instructions: number;
  try {
    instructions = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE).programSize();
  } catch (error) {
    return { pattern: null, problem: { reason: "syntax", message: describeSyntaxError(error) } };
  }
  if (instructions > FILTER_PATTERN_MAX_INSTRUCTIONS) {
    const message = `is too complex (${instructions} steps once compiled, at most ${FILTER_PATTERN_MAX_INSTRUCTIONS}: each literal character is one, a counted repetition such as {100} repeats its part; use contains for plain text)`;
    return { pattern: null, problem: { reason: "too_complex", message } };
  }
  // A set of one pattern: unlike a lone RE2JS, its lazy DFA takes a memory bound, past which it gives
  // up early for the NFA instead of building states for every character.
  const set = new RE2Set(RE2Set.UNANCHORED, RE2JS.CASE_INSENSITIVE, FILTER_PATTERN_DFA_BYTES);
  set.add(source);
  set.compile();
  return { pattern: { test: (value) => set.match(value).length > 0, instructions }, problem: null };
}

/** Compiles a pattern a saved filter holds (checked when it was saved); throws on one that cannot be used. */
export function compileFilterPattern(source: string): FilterPattern {
  const { pattern, problem } = tryCompileFilterPattern(source);
  if (problem) throw new Error(`A filter's pattern ${problem.message}`);
  return pattern;
}

/**
 * re2js says `error parsing regexp: missing closing ): \`(?i)(a\``: the part after the prefix, quoting
 * the pattern as the user wrote it (without the `(?i)` that ignoring case put before it).
 */
function describeSyntaxError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return `does not compile (${text.replace(/^error parsing regexp:\s*/, "").replace("`(?i)", "`")})`;
}
