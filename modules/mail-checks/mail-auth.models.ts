// The authentication verdicts of a mail in the webhook's words (docs/webhooks.md: Authentication):
// RFC 8601 results for SPF, every DKIM signature with its alignment, DMARC with the domain's
// policy, and ARC. mailauth's own words are mapped here: a signature whose body hash does not
// verify is `fail` (mailauth says neutral), and an unsigned mail has no DKIM entry.

export const AUTH_RESULTS = ["pass", "fail", "softfail", "neutral", "none", "temperror", "permerror"] as const;
export type AuthResult = (typeof AUTH_RESULTS)[number];

export type DmarcPolicy = "none" | "quarantine" | "reject";

export type MailAuthentication = {
  /** Null when the client's address is unknown (a provider that does not say). */
  spf: { result: AuthResult; domain: string | null } | null;
  dkim: { result: AuthResult; domain: string; selector: string | null; aligned: boolean }[];
  dmarc: { result: AuthResult; policy: DmarcPolicy | null; domain: string | null };
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

function toDkimEntry(signature: NonNullable<NonNullable<MailauthResult["dkim"]>["results"]>[number]) {
  const status = signature.status ?? {};
  const isBodyHashMismatch = status.result === "neutral" && /body hash did not verify/i.test(status.comment ?? "");
  return {
    result: isBodyHashMismatch ? "fail" : toAuthResult(status.result),
    domain: signature.signingDomain ?? "",
    selector: signature.selector ?? null,
    aligned: Boolean(status.aligned),
  } satisfies MailAuthentication["dkim"][number];
}

export function toMailAuthentication(result: MailauthResult, { hasClient }: { hasClient: boolean }): MailAuthentication {
  const signatures = (result.dkim?.results ?? []).filter((signature) => signature.signingDomain);
  const dmarc = result.dmarc || undefined;
  return {
    spf: hasClient && result.spf ? { result: toAuthResult(result.spf.status?.result), domain: result.spf.domain ?? null } : null,
    dkim: signatures.map(toDkimEntry),
    dmarc: {
      result: toAuthResult(dmarc?.status?.result),
      policy: toDmarcPolicy(dmarc?.policy ?? dmarc?.p),
      domain: dmarc?.domain ?? null,
    },
    arc: { result: toAuthResult(result.arc ? result.arc.status?.result : undefined) },
  };
}

/** Every verdict a temporary error: DNS did not answer within the deadline. */
export function temporaryFailure({ hasClient }: { hasClient: boolean }): MailAuthentication {
  return {
    spf: hasClient ? { result: "temperror", domain: null } : null,
    dkim: [],
    dmarc: { result: "temperror", policy: null, domain: null },
    arc: { result: "temperror" },
  };
}
