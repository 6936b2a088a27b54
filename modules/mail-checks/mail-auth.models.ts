// The authentication verdicts of a mail in the webhook's words (docs/webhooks.md: Authentication):
// RFC 8601 results for SPF, every DKIM signature with its alignment, DMARC with the domain's
// policy, and ARC. mailauth's own words are mapped here: a signature whose body hash does not
// verify is `fail` (mailauth says neutral), and an unsigned mail has no DKIM entry. DMARC is judged
// on the one From mailbox read before any lookup (mail-auth-headers.ts): without one it fails, with
// the reason; a check that did not finish in time is `temperror`.
import { FROM_PROBLEMS, isAlignedWith, type MessageAuthor } from "./mail-auth-headers";

export const AUTH_RESULTS = ["pass", "fail", "softfail", "neutral", "none", "temperror", "permerror"] as const;
export type AuthResult = (typeof AUTH_RESULTS)[number];

export type DmarcPolicy = "none" | "quarantine" | "reject";

export const DMARC_REASONS = FROM_PROBLEMS;
export type DmarcReason = (typeof DMARC_REASONS)[number];

export type MailAuthentication = {
  /** Null when the client's address is unknown (a provider that does not say). */
  spf: { result: AuthResult; domain: string | null } | null;
  dkim: { result: AuthResult; domain: string; selector: string | null; aligned: boolean }[];
  /** `reason` says why DMARC failed before any record was read: no From mailbox, or several. */
  dmarc: { result: AuthResult; policy: DmarcPolicy | null; domain: string | null; reason: DmarcReason | null };
  arc: { result: AuthResult };
};

type MailauthStatus = { result?: string; comment?: string; aligned?: unknown };

/** What `authenticate` of mailauth answers, as far as we read it. */
export type MailauthResult = {
  dkim?: { results?: { signingDomain?: string; selector?: string; status?: MailauthStatus }[] };
  spf?: { domain?: string; status?: MailauthStatus } | false;
  dmarc?: { domain?: string; policy?: string; p?: string; status?: MailauthStatus } | false;
  arc?: { status?: MailauthStatus } | false;
};

function toAuthResult(result: string | undefined): AuthResult {
  const word = (result ?? "none").toLowerCase();
  return AUTH_RESULTS.find((candidate) => candidate === word) ?? "permerror";
}

function toDmarcPolicy(policy: string | undefined): DmarcPolicy | null {
  const word = policy?.toLowerCase();
  return word === "none" || word === "quarantine" || word === "reject" ? word : null;
}

function toDkimEntry(signature: NonNullable<NonNullable<MailauthResult["dkim"]>["results"]>[number], fromDomain: string | null) {
  const status = signature.status ?? {};
  const isBodyHashMismatch = status.result === "neutral" && /body hash did not verify/i.test(status.comment ?? "");
  const domain = signature.signingDomain ?? "";
  return {
    result: isBodyHashMismatch ? "fail" : toAuthResult(status.result),
    domain,
    selector: signature.selector ?? null,
    aligned: fromDomain !== null && isAlignedWith(fromDomain, domain),
  } satisfies MailAuthentication["dkim"][number];
}

function toSpfVerdict(spf: MailauthResult["spf"]): NonNullable<MailAuthentication["spf"]> {
  return spf ? { result: toAuthResult(spf.status?.result), domain: spf.domain ?? null } : { result: "temperror", domain: null };
}

function toDmarcVerdict(dmarc: MailauthResult["dmarc"], author: MessageAuthor): MailAuthentication["dmarc"] {
  if ("problem" in author) return { result: "fail", policy: null, domain: null, reason: author.problem };
  // Not evaluated (the check ran out of time, or could not read the message).
  if (!dmarc) return { result: "temperror", policy: null, domain: null, reason: null };
  return {
    result: toAuthResult(dmarc.status?.result),
    policy: toDmarcPolicy(dmarc.policy ?? dmarc.p),
    domain: dmarc.domain ?? null,
    reason: null,
  };
}

/**
 * The verdicts of the checks that finished; one that did not (left out of `result`) is `temperror`,
 * and `dkim` is `[]` when the signatures were not verified.
 */
export function toMailAuthentication(
  result: MailauthResult,
  { hasClient, author }: { hasClient: boolean; author: MessageAuthor },
): MailAuthentication {
  const fromDomain = "domain" in author ? author.domain : null;
  const signatures = (result.dkim?.results ?? []).filter((signature) => signature.signingDomain);
  return {
    spf: hasClient ? toSpfVerdict(result.spf) : null,
    dkim: signatures.map((signature) => toDkimEntry(signature, fromDomain)),
    dmarc: toDmarcVerdict(result.dmarc, author),
    arc: { result: result.arc ? toAuthResult(result.arc.status?.result) : "temperror" },
  };
}
