// The DNS check of a domain (docs/domains.md: Verification): the TXT record of `_hookmail.<name>`
// must carry the account's token and an MX record of the name must point at MX_HOSTNAME. Both are
// asked at once, through the resolvers of DNS_SERVERS, and the whole check ends within
// DOMAIN_CHECK_TIMEOUT_MS. Each record missing or wrong is a problem the owner can act on
// (domain-check-problems.ts).
import type { MailAuthResolver } from "@/modules/mail-checks/dns-resolver";
import { describeError } from "@/modules/shared/errors/describe-error";
import type { DomainCheckProblem, DomainRecordType } from "./domain-check-problems";
import { DOMAIN_CHECK_TIMEOUT_MS } from "./domains.constants";
import { getVerificationRecordName, getVerificationRecordValue, toComparableHostName } from "./domains.models";

export type DomainCheck = { isPassed: true; problems: [] } | { isPassed: false; problems: DomainCheckProblem[] };

/** The codes node:dns answers for a name that does not exist or has no record of the type asked. */
const NO_RECORD_CODES = new Set(["ENOTFOUND", "ENODATA"]);
const TIMEOUT_CODE = "ETIMEOUT";

class DnsDeadlineError extends Error {
  readonly code = TIMEOUT_CODE;
}

/** A lookup's answer, or the error it failed with: the deadline's if it comes first. */
async function lookUp(resolve: () => Promise<unknown>, deadline: Promise<never>) {
  try {
    return { answer: await Promise.race([resolve(), deadline]) };
  } catch (error) {
    return { error };
  }
}

/** A failed lookup of a record, as a problem: not found, not answered in time, or failed with a code. */
function toLookupProblem(record: DomainRecordType, name: string, error: unknown, timeoutMs: number): DomainCheckProblem {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && NO_RECORD_CODES.has(code)) return { kind: "notFound", record, name };
  if (code === TIMEOUT_CODE) return { kind: "timedOut", record, name, seconds: timeoutMs / 1000 };
  return { kind: "lookupFailed", record, name, reason: typeof code === "string" ? code : describeError(error) };
}

/** node:dns answers TXT records as arrays of character-strings, which make one value together. */
function toTxtValues(answer: unknown): string[] {
  if (!Array.isArray(answer)) return [];
  return answer.map((record) => (Array.isArray(record) ? record.join("") : String(record)));
}

function toMxHosts(answer: unknown): string[] {
  if (!Array.isArray(answer)) return [];
  return answer.map((record) => toComparableHostName(String((record as { exchange?: unknown }).exchange ?? "")));
}

export async function checkDomainRecords({
  name,
  token,
  mxHostname,
  resolver,
  timeoutMs = DOMAIN_CHECK_TIMEOUT_MS,
}: {
  name: string;
  token: string;
  mxHostname: string;
  resolver: MailAuthResolver;
  timeoutMs?: number;
}): Promise<DomainCheck> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DnsDeadlineError("DNS check timed out")), timeoutMs);
  });
  const txtName = getVerificationRecordName(name);
  const [txt, mx] = await Promise.all([
    lookUp(() => resolver(txtName, "TXT"), deadline),
    lookUp(() => resolver(name, "MX"), deadline),
  ]).finally(() => clearTimeout(timer));

  const problems: DomainCheckProblem[] = [];
  const expectedValue = getVerificationRecordValue(token);
  if ("error" in txt) problems.push(toLookupProblem("TXT", txtName, txt.error, timeoutMs));
  else if (!toTxtValues(txt.answer).includes(expectedValue)) {
    problems.push({ kind: "valueMissing", record: "TXT", name: txtName, value: expectedValue });
  }
  const expectedHost = toComparableHostName(mxHostname);
  const hosts = "error" in mx ? [] : toMxHosts(mx.answer);
  if ("error" in mx) problems.push(toLookupProblem("MX", name, mx.error, timeoutMs));
  else if (hosts.length === 0) problems.push({ kind: "notFound", record: "MX", name });
  else if (!hosts.includes(expectedHost)) problems.push({ kind: "wrongHost", record: "MX", name, hosts, expected: expectedHost });
  return problems.length === 0 ? { isPassed: true, problems: [] } : { isPassed: false, problems };
}
