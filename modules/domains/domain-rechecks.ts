// The worker's daily re-check of users' domains (docs/domains.md: Daily re-check). Every hour the
// worker role claims the verified and failing domains last checked 24 h ago or more, a batch at a
// time (one process per domain: domain-rechecks.repository.ts), and checks each one's records as
// "Verify now" does. A failed check makes a verified domain failing (it still receives mail); a
// failing domain whose checks have failed for 72 h becomes pending (its mail is refused) and its
// owner is mailed what to fix; a failing domain whose check passes is verified again and its owner
// is mailed so. A mail goes out only after its transition is written, and only by the process that
// wrote it; a mail that cannot be sent is logged and never undoes the transition.
import type { Locale } from "@/modules/i18n/i18n.constants";
import { resolveLocale } from "@/modules/i18n/locale.models";
import { renderDomainRestoredMail, renderDomainSuspendedMail } from "@/modules/mail/domain-mails";
import { getMailTranslator } from "@/modules/mail/mail-translator";
import type { Mailer } from "@/modules/mail/mailer";
import type { MailAuthResolver } from "@/modules/mail-checks/dns-resolver";
import { DOMAINS_PATH } from "@/modules/shared/app-paths";
import type { Logger } from "@/modules/shared/logging/logger";
import { describeDomainCheckProblems, readDomainCheckProblems, sayDomainCheckProblem } from "./domain-check-problems";
import type { ClaimedDomain, DomainRechecksRepository, RecheckResult } from "./domain-rechecks.repository";
import {
  DOMAIN_FAILING_GRACE_MS,
  DOMAIN_RECHECK_BATCH_SIZE,
  DOMAIN_RECHECK_FIRST_RUN_DELAY_MS,
  DOMAIN_RECHECK_INTERVAL_MS,
  DOMAIN_STATUS,
} from "./domains.constants";
import { getVerificationRecordName, getVerificationRecordValue } from "./domains.models";
import { checkDomainRecords, type DomainCheck } from "./domains.verification";

/** The mail a transition calls for: "suspended" (failing → pending) or "restored" (failing → verified). */
export type RecheckTransition = "suspended" | "restored" | null;

/** What a re-check makes of a claimed domain, and the mail that goes with it. */
export function toRecheckResult(
  domain: Pick<ClaimedDomain, "status" | "failingSince">,
  check: DomainCheck,
  now: Date,
): { result: RecheckResult; transition: RecheckTransition } {
  if (check.isPassed) {
    return {
      result: { status: DOMAIN_STATUS.VERIFIED, lastCheckError: null, failingSince: null, checkedAt: now },
      transition: domain.status === DOMAIN_STATUS.FAILING ? "restored" : null,
    };
  }
  const lastCheckError = describeDomainCheckProblems(check.problems);
  const failingSince = domain.status === DOMAIN_STATUS.FAILING && domain.failingSince ? domain.failingSince : now;
  if (now.getTime() - failingSince.getTime() >= DOMAIN_FAILING_GRACE_MS) {
    return {
      result: { status: DOMAIN_STATUS.PENDING, lastCheckError, failingSince: null, checkedAt: now },
      transition: "suspended",
    };
  }
  return { result: { status: DOMAIN_STATUS.FAILING, lastCheckError, failingSince, checkedAt: now }, transition: null };
}

export type DomainRechecks = {
  /** Re-checks every due domain, a batch at a time; answers how many this process checked. */
  recheckDueDomains: () => Promise<number>;
};

export function createDomainRechecks({
  repository,
  resolver,
  mailer,
  mxHostname,
  baseUrl,
  logger,
  clock = () => new Date(),
  batchSize = DOMAIN_RECHECK_BATCH_SIZE,
}: {
  repository: DomainRechecksRepository;
  /** The process's resolver of DNS_SERVERS, as "Verify now" uses. */
  resolver: MailAuthResolver;
  mailer: Mailer;
  mxHostname: string;
  /** The app's public address (BASE_URL): the mails link to the Domains page there. */
  baseUrl: string;
  logger: Logger;
  clock?: () => Date;
  batchSize?: number;
}): DomainRechecks {
  const domainsUrl = `${baseUrl}${DOMAINS_PATH}`;

  const sendMail = async (domain: ClaimedDomain, transition: Exclude<RecheckTransition, null>, problem: string | null) => {
    const base = {
      locale: resolveLocale({ storedLocale: domain.locale, acceptLanguage: null }),
      name: domain.ownerName,
      domain: domain.name,
      domainsUrl,
    };
    const mail =
      transition === "restored"
        ? renderDomainRestoredMail(base)
        : renderDomainSuspendedMail({
            ...base,
            problems: sayProblemsInMail(problem, base.locale),
            records: {
              txt: { name: getVerificationRecordName(domain.name), value: getVerificationRecordValue(domain.token) },
              mx: { name: domain.name, value: mxHostname },
            },
          });
    try {
      await mailer.send({ to: domain.email, ...mail });
      logger.info({ domainId: domain.id, transition }, "Domain re-check mail sent to its owner");
    } catch (error) {
      logger.error({ domainId: domain.id, transition, err: error }, "The domain re-check mail could not be sent");
    }
  };

  const recheck = async (domain: ClaimedDomain) => {
    const check = await checkDomainRecords({ name: domain.name, token: domain.token, mxHostname, resolver });
    const { result, transition } = toRecheckResult(domain, check, clock());
    const isSaved = await repository.saveRecheck(domain, result);
    if (isSaved && transition) await sendMail(domain, transition, result.lastCheckError);
  };

  return {
    async recheckDueDomains() {
      let total = 0;
      for (;;) {
        const now = clock();
        const dueBefore = new Date(now.getTime() - DOMAIN_RECHECK_INTERVAL_MS);
        const claimed = await repository.claimDueDomains({ now, dueBefore, batchSize });
        const outcomes = await Promise.allSettled(claimed.map(recheck));
        for (const [index, outcome] of outcomes.entries()) {
          if (outcome.status === "rejected") {
            logger.error({ domainId: claimed[index]?.id, err: outcome.reason }, "A domain re-check failed");
          }
        }
        total += claimed.length;
        if (claimed.length < batchSize) return total;
      }
    },
  };
}

/**
 * The worker role's sweep: every `sweepIntervalMs` (DOMAIN_RECHECK_SWEEP_MS, an hour by default), the
 * first time shortly after start (90 s, or `sweepIntervalMs` if shorter).
 */
export function startDomainRechecks({
  rechecks,
  sweepIntervalMs,
  logger,
}: {
  rechecks: DomainRechecks;
  sweepIntervalMs: number;
  logger: Logger;
}): {
  stop: () => Promise<void>;
} {
  let current: Promise<void> | undefined;
  const sweep = () => {
    // A sweep still running (slow resolvers, a short interval) makes the next tick skip, not overlap it.
    if (current !== undefined) return;
    current = rechecks
      .recheckDueDomains()
      .then((checked) => {
        if (checked > 0) logger.info({ domains: checked }, "Domains re-checked");
      })
      .catch((error: unknown) => logger.error({ err: error }, "Domain re-check sweep failed"))
      .finally(() => {
        current = undefined;
      });
  };
  const first = setTimeout(sweep, Math.min(DOMAIN_RECHECK_FIRST_RUN_DELAY_MS, sweepIntervalMs));
  const every = setInterval(sweep, sweepIntervalMs);
  first.unref();
  every.unref();
  return {
    stop: async () => {
      clearTimeout(first);
      clearInterval(every);
      await current;
    },
  };
}

/** A check's `lastCheckError`, each problem said in the mail's language (domain-check-problems.ts). */
function sayProblemsInMail(lastCheckError: string | null, locale: Locale): string[] {
  const t = getMailTranslator(locale);
  return readDomainCheckProblems(lastCheckError).map((problem) =>
    sayDomainCheckProblem(problem, (key, values) => t(`domains.problems.${key}`, values)),
  );
}
