// Errors of users' own domains, with the codes of the shared table (error-codes.ts).
import { AppError, defineError } from "@/modules/shared/errors/app-error";

export const createDomainNotFoundError = defineError("domain.not_found", "The domain was not found.");

export const createDomainReservedError = defineError(
  "domain.reserved",
  "This domain is reserved: it is one of this service's own domains or a name under one.",
  { path: "name", code: "reserved", message: "This domain is reserved" },
);

export const createDomainAlreadyExistsError = defineError("domain.already_exists", "You have already added this domain.", {
  path: "name",
  code: "already_exists",
  message: "You have already added this domain",
});

export const createDomainTakenError = defineError("domain.taken", "This domain is already verified by another account.", {
  path: "name",
  code: "taken",
  message: "This domain is already verified by another account",
});

export const createDomainsLimitReachedError = (limit: number) =>
  new AppError({
    code: "domains.limit_reached",
    message: `You have reached the maximum number of domains of your plan (${limit}): delete one or upgrade your plan to add another.`,
  });

export const createDomainInUseError = defineError(
  "domain.in_use",
  "This domain still has addresses: delete them before deleting the domain.",
);
