// Pure functions of users' own domains (docs/domains.md): a typed name as DNS writes it, the names
// no user may claim, and the domain as the API shows it.
import { isIP } from "node:net";
import { domainToASCII } from "node:url";
import {
  DOMAIN_LABEL_MAX_LENGTH,
  DOMAIN_MX_PRIORITY,
  DOMAIN_NAME_MAX_LENGTH,
  DOMAIN_VERIFICATION_RECORD_LABEL,
  DOMAIN_VERIFICATION_VALUE_PREFIX,
  type DomainStatus,
} from "./domains.constants";

export type DomainRecord = {
  id: string;
  userId: string;
  name: string;
  token: string;
  status: DomainStatus;
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  lastCheckError: string | null;
  failingSince: Date | null;
  createdAt: Date;
};

export type DnsRecordToSet =
  | { type: "TXT"; name: string; value: string }
  | { type: "MX"; name: string; value: string; priority: number };

export type ApiDomain = {
  id: string;
  name: string;
  status: DomainStatus;
  records: DnsRecordToSet[];
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  lastCheckError: string | null;
  createdAt: string;
};

/** Characters a typed name may hold before conversion: ASCII letters, digits, hyphens and dots, or any non-ASCII letter of an IDN. */
const TYPED_NAME_PATTERN = /^[A-Za-z0-9.\-\u0080-\uFFFF]+$/u;
const LABEL_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/**
 * A typed domain name as DNS writes it — lowercase, IDN labels as A-labels (`bücher.example` →
 * `xn--bcher-kva.example`), without a trailing dot — or null when it is no name a user can own:
 * spaces or other characters, an IP address, `localhost` or a name under it, a single label, a name
 * over 253 characters or a label over 63, a label starting or ending with a hyphen, an all-digit
 * top-level label.
 */
export function normalizeDomainName(typed: string): string | null {
  const trimmed = typed.trim().replace(/\.$/, "");
  if (!TYPED_NAME_PATTERN.test(trimmed) || isIP(trimmed) !== 0) return null;
  const name = domainToASCII(trimmed);
  if (name === "" || isIP(name) !== 0 || name.length > DOMAIN_NAME_MAX_LENGTH) return null;
  const labels = name.split(".");
  if (labels.length < 2 || /^\d+$/.test(labels.at(-1) ?? "")) return null;
  if (labels.some((label) => label.length > DOMAIN_LABEL_MAX_LENGTH || !LABEL_PATTERN.test(label))) return null;
  if (name === "localhost" || name.endsWith(".localhost")) return null;
  return name;
}

/** Whether `name` is one of `reserved` or a name under one of them. */
export function isReservedDomainName(name: string, reserved: readonly string[]): boolean {
  return reserved.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

/** A host name as written in an MX answer or in the configuration, compared case-insensitively without its trailing dot. */
export function toComparableHostName(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, "");
}

export function getVerificationRecordName(name: string): string {
  return `${DOMAIN_VERIFICATION_RECORD_LABEL}.${name}`;
}

export function getVerificationRecordValue(token: string): string {
  return `${DOMAIN_VERIFICATION_VALUE_PREFIX}${token}`;
}

/** The two records the owner sets: the TXT proving they own the name, and the MX bringing its mail here. */
export function getDomainRecordsToSet(domain: Pick<DomainRecord, "name" | "token">, mxHostname: string): DnsRecordToSet[] {
  return [
    { type: "TXT", name: getVerificationRecordName(domain.name), value: getVerificationRecordValue(domain.token) },
    { type: "MX", name: domain.name, value: mxHostname, priority: DOMAIN_MX_PRIORITY },
  ];
}

/** The domain as the API shows it: its records to set, never its owner's id. */
export function formatDomainForApi(domain: DomainRecord, mxHostname: string): ApiDomain {
  return {
    id: domain.id,
    name: domain.name,
    status: domain.status,
    records: getDomainRecordsToSet(domain, mxHostname),
    verifiedAt: domain.verifiedAt?.toISOString() ?? null,
    lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
    lastCheckError: domain.lastCheckError,
    createdAt: domain.createdAt.toISOString(),
  };
}
