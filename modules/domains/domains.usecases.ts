// Rules of users' own domains (docs/domains.md): a user lists, adds, checks and deletes only their
// own. Adding checks, in order: the name (the schema), reserved, already added, held by another
// account, the plan's limit. A check makes the domain verified when its TXT and MX records are
// right and no other account holds the name.
import type { Config } from "@/modules/config/config";
import type { MailAuthResolver } from "@/modules/mail-checks/dns-resolver";
import { getMaxDomains } from "@/modules/plans/plans.models";
import { createId, generateRandomBase62 } from "@/modules/shared/ids";
import { describeDomainCheckProblems } from "./domain-check-problems";
import { DOMAIN_HELD_STATUSES, DOMAIN_STATUS, DOMAIN_TOKEN_LENGTH } from "./domains.constants";
import {
  createDomainAlreadyExistsError,
  createDomainInUseError,
  createDomainNotFoundError,
  createDomainReservedError,
  createDomainsLimitReachedError,
  createDomainTakenError,
} from "./domains.errors";
import { type DomainRecord, isReservedDomainName } from "./domains.models";
import type { DomainCheckResult, DomainsRepository } from "./domains.repository";
import type { CreateDomainInput } from "./domains.schemas";
import { checkDomainRecords, type DomainCheck } from "./domains.verification";

export type DomainRules = Pick<Config, "emailDomains" | "mxHostname">;

type Owner = { userId: string; planId: string };
type OwnedDomainInput = { id: string; userId: string; repository: DomainsRepository };

/** The names no user may claim: the operator's domains, MX_HOSTNAME, and (by isReservedDomainName) any name under them. */
export function getReservedDomainNames(rules: DomainRules): string[] {
  return [...rules.emailDomains, rules.mxHostname];
}

export async function listDomains({ userId, repository }: { userId: string; repository: DomainsRepository }) {
  return { domains: await repository.listDomainsOfUser(userId) };
}

export async function getDomainOrThrow({ id, userId, repository }: OwnedDomainInput): Promise<DomainRecord> {
  const domain = await repository.findDomainOfUser({ id, userId });
  if (!domain) throw createDomainNotFoundError();
  return domain;
}

/** Adds a pending domain with a new token; the checks and the insert run under the owner's lock. */
export async function createDomain({
  owner,
  input,
  rules,
  repository,
}: {
  owner: Owner;
  input: CreateDomainInput;
  rules: DomainRules;
  repository: DomainsRepository;
}): Promise<{ domain: DomainRecord }> {
  const { name } = input;
  if (isReservedDomainName(name, getReservedDomainNames(rules))) throw createDomainReservedError();
  const limit = getMaxDomains(owner.planId);
  const domain = await repository.runLockedForUser(owner.userId, async (queries) => {
    if (await queries.isNameOfUser({ name, userId: owner.userId })) throw createDomainAlreadyExistsError();
    if (await queries.isNameHeldByAnotherUser({ name, userId: owner.userId })) throw createDomainTakenError();
    if ((await queries.countDomainsOfUser(owner.userId)) >= limit) throw createDomainsLimitReachedError(limit);
    return queries.insertDomain({
      id: createId("domain"),
      userId: owner.userId,
      name,
      token: generateRandomBase62(DOMAIN_TOKEN_LENGTH),
    });
  });
  return { domain };
}

function describeHeldElsewhere(name: string): string {
  return `${name} is already verified by another account: it can be verified here once that account deletes it`;
}

/**
 * What a check makes of a domain. Passed: verified (since its first verification). Failed: a held
 * domain turns failing (it keeps its name and its mail until the grace period ends, as after the
 * worker's re-check), any other stays pending; `lastCheckError` names each problem.
 */
function toCheckResult(domain: DomainRecord, check: DomainCheck, now: Date): DomainCheckResult {
  const isHeld = DOMAIN_HELD_STATUSES.includes(domain.status);
  if (check.isPassed) {
    return {
      status: DOMAIN_STATUS.VERIFIED,
      verifiedAt: isHeld && domain.verifiedAt ? domain.verifiedAt : now,
      lastCheckedAt: now,
      lastCheckError: null,
      failingSince: null,
    };
  }
  return {
    status: isHeld ? DOMAIN_STATUS.FAILING : DOMAIN_STATUS.PENDING,
    verifiedAt: domain.verifiedAt,
    lastCheckedAt: now,
    lastCheckError: describeDomainCheckProblems(check.problems),
    failingSince: isHeld ? (domain.failingSince ?? now) : null,
  };
}

/** Checks the domain's records now and records the result; a name another account holds stays pending here. */
export async function verifyDomain({
  id,
  userId,
  rules,
  resolver,
  repository,
  now = () => new Date(),
}: OwnedDomainInput & { rules: DomainRules; resolver: MailAuthResolver; now?: () => Date }): Promise<{ domain: DomainRecord }> {
  const domain = await getDomainOrThrow({ id, userId, repository });
  const check = await checkDomainRecords({ name: domain.name, token: domain.token, mxHostname: rules.mxHostname, resolver });
  const checkedAt = now();
  const heldElsewhere: DomainCheckResult = {
    status: DOMAIN_STATUS.PENDING,
    verifiedAt: null,
    lastCheckedAt: checkedAt,
    lastCheckError: describeHeldElsewhere(domain.name),
    failingSince: null,
  };
  const result =
    check.isPassed && (await repository.isNameHeldByAnotherUser({ name: domain.name, userId }))
      ? heldElsewhere
      : toCheckResult(domain, check, checkedAt);
  // The unique index on held names settles a race with another account's check of the same name.
  const saved =
    (await repository.saveDomainCheck({ id, userId }, result)) ??
    (await repository.saveDomainCheck({ id, userId }, heldElsewhere));
  if (!saved) throw createDomainNotFoundError();
  return { domain: saved };
}

/** Deletes one of the user's domains, unless one of their addresses is on it. */
export async function deleteDomain({ id, userId, repository }: OwnedDomainInput): Promise<void> {
  const outcome = await repository.deleteDomainOfUser({ id, userId });
  if (outcome === "not-found") throw createDomainNotFoundError();
  if (outcome === "in-use") throw createDomainInUseError();
}
