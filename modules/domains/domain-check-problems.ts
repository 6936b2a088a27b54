// What a check of a domain's records found wrong (docs/domains.md: Verification), as data. The API's
// `lastCheckError` says each problem in English words, joined by DOMAIN_CHECK_PROBLEM_SEPARATOR (a
// contract other programs read); the dashboard and the owner's mails read those words back into
// problems and say them in the reader's language. Words that are not one of these problems (a
// future kind, or text stored by an older version) are shown as they are.
import { DOMAIN_CHECK_PROBLEM_SEPARATOR } from "./domains.constants";

export type DomainRecordType = "TXT" | "MX";

export type DomainCheckProblem =
  /** No record of the type at the name (or no such name). */
  | { kind: "notFound"; record: DomainRecordType; name: string }
  /** The DNS servers did not answer within the check's deadline. */
  | { kind: "timedOut"; record: DomainRecordType; name: string; seconds: number }
  /** The lookup failed otherwise: `reason` is the resolver's code or message. */
  | { kind: "lookupFailed"; record: DomainRecordType; name: string; reason: string }
  /** The TXT records are there, none of them the account's verification value. */
  | { kind: "valueMissing"; record: "TXT"; name: string; value: string }
  /** The MX records point elsewhere than the expected host. */
  | { kind: "wrongHost"; record: "MX"; name: string; hosts: string[]; expected: string };

/** A problem read back from `lastCheckError`, or words this version does not know, kept as they are. */
export type ReadDomainCheckProblem = DomainCheckProblem | { kind: "other"; text: string };

/** One problem in the API's English words (`lastCheckError`). */
export function describeDomainCheckProblem(problem: DomainCheckProblem): string {
  const subject = `${problem.record} ${problem.name}`;
  switch (problem.kind) {
    case "notFound":
      return `${subject} not found`;
    case "timedOut":
      return `${subject} not answered: the DNS lookup timed out after ${problem.seconds} s`;
    case "lookupFailed":
      return `${subject} could not be looked up (${problem.reason})`;
    case "valueMissing":
      return `${subject} does not contain ${problem.value}`;
    case "wrongHost":
      return `${subject} points to ${problem.hosts.join(", ")}, not ${problem.expected}`;
  }
}

/** `lastCheckError` of a check that found these problems. */
export function describeDomainCheckProblems(problems: DomainCheckProblem[]): string {
  return problems.map(describeDomainCheckProblem).join(DOMAIN_CHECK_PROBLEM_SEPARATOR);
}

// Each of describeDomainCheckProblem's sentences, read back; a name holds no space.
const SUBJECT = String.raw`(TXT|MX) (\S+)`;
const READERS: [RegExp, (subject: { record: DomainRecordType; name: string }, match: string[]) => DomainCheckProblem | null][] = [
  [new RegExp(`^${SUBJECT} not found$`), (subject) => ({ kind: "notFound", ...subject })],
  [
    new RegExp(`^${SUBJECT} not answered: the DNS lookup timed out after (\\d+(?:\\.\\d+)?) s$`),
    (subject, match) => ({ kind: "timedOut", ...subject, seconds: Number(match[3]) }),
  ],
  [
    new RegExp(`^${SUBJECT} could not be looked up \\((.*)\\)$`),
    (subject, match) => ({ kind: "lookupFailed", ...subject, reason: match[3]! }),
  ],
  [
    new RegExp(`^${SUBJECT} does not contain (\\S+)$`),
    (subject, match) =>
      subject.record === "TXT" ? { kind: "valueMissing", record: "TXT", name: subject.name, value: match[3]! } : null,
  ],
  [
    new RegExp(`^${SUBJECT} points to (\\S+(?:, \\S+)*), not (\\S+)$`),
    (subject, match) =>
      subject.record === "MX"
        ? { kind: "wrongHost", record: "MX", name: subject.name, hosts: match[3]!.split(", "), expected: match[4]! }
        : null,
  ],
];

/** The problems of a `lastCheckError`, in its order; none for null or empty. */
export function readDomainCheckProblems(lastCheckError: string | null): ReadDomainCheckProblem[] {
  if (!lastCheckError) return [];
  return lastCheckError.split(DOMAIN_CHECK_PROBLEM_SEPARATOR).map((text) => {
    for (const [pattern, read] of READERS) {
      const match = pattern.exec(text);
      const problem = match ? read({ record: match[1] as DomainRecordType, name: match[2]! }, match) : null;
      if (problem) return problem;
    }
    return { kind: "other", text };
  });
}

/** The translator of the `domains.problems` messages: next-intl's in the dashboard, the mails' own. */
export type DomainProblemTranslator = (
  key: Exclude<ReadDomainCheckProblem["kind"], "other">,
  values: Record<string, string | number>,
) => string;

/** One problem in the reader's language: the message of its kind, with its fields (its hosts as a list). */
export function sayDomainCheckProblem(problem: ReadDomainCheckProblem, t: DomainProblemTranslator): string {
  if (problem.kind === "other") return problem.text;
  const { kind, ...values } = problem;
  return t(kind, "hosts" in values ? { ...values, hosts: values.hosts.join(", ") } : values);
}
