// The DNS check of a domain (docs/domains.md: Verification): the TXT record of `_hookmail.<name>`
// must carry the account's token and an MX record of the name must point at MX_HOSTNAME. Both are
// asked at once, through the resolvers of DNS_SERVERS, and the whole check ends within
// DOMAIN_CHECK_TIMEOUT_MS. Each record missing or wrong is said in words the owner can act on.
import type { MailAuthResolver } from "@/modules/mail-checks/dns-resolver";
import { describeError } from "@/modules/shared/errors/describe-error";
import { DOMAIN_CHECK_TIMEOUT_MS } from "./domains.constants";
import { getVerificationRecordName, getVerificationRecordValue, toComparableHostName } from "./domains.models";

export type DomainCheck = { isPassed: true; problems: [] } | { isPassed: false; problems: string[] };

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

/** "not found", "timed out" or "could not be looked up (<code>)": a failed lookup, in words. */
function describeLookupError(error: unknown, timeoutMs: number): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && NO_RECORD_CODES.has(code)) return "not found";
  if (code === TIMEOUT_CODE) return `not answered: the DNS lookup timed out after ${timeoutMs / 1000} s`;
  return `could not be looked up (${typeof code === "string" ? code : describeError(error)})`;
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

  const problems: string[] = [];
  const expectedValue = getVerificationRecordValue(token);
  if ("error" in txt) problems.push(`TXT ${txtName} ${describeLookupError(txt.error, timeoutMs)}`);
  else if (!toTxtValues(txt.answer).includes(expectedValue)) {
    problems.push(`TXT ${txtName} does not contain ${expectedValue}`);
  }
  const expectedHost = toComparableHostName(mxHostname);
  const hosts = "error" in mx ? [] : toMxHosts(mx.answer);
  if ("error" in mx) problems.push(`MX ${name} ${describeLookupError(mx.error, timeoutMs)}`);
  else if (hosts.length === 0) problems.push(`MX ${name} not found`);
  else if (!hosts.includes(expectedHost)) problems.push(`MX ${name} points to ${hosts.join(", ")}, not ${expectedHost}`);
  return problems.length === 0 ? { isPassed: true, problems: [] } : { isPassed: false, problems };
}
