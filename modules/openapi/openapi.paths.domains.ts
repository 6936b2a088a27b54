// The calls on users' own domains (docs/domains.md): a session or an API key.
import { z } from "zod";
import { createDomainSchema, domainRouteQuerySchema } from "@/modules/domains/domains.schemas";
import { OPENAPI_TAG } from "./openapi.constants";
import type { OperationSpec } from "./openapi.operations";
import { domainResponseSchema } from "./openapi.responses";

const tag = OPENAPI_TAG.DOMAINS;
const domainContent = { "application/json": z.object({ domain: domainResponseSchema }) };

/** The answer of GET /api/domains/route (modules/inbound/route-preview.ts: DomainRoutePreview). */
export const domainRouteResponseSchema = z.object({
  recipient: z.string().describe("The address as given, tag included."),
  match: z.enum(["exact", "pattern", "catch-all"]).nullable().describe("How the address's username matched; null when none did."),
  emailCallback: z.object({ id: z.string(), username: z.string(), domain: z.string() }).nullable(),
  reason: z
    .enum(["unknown-domain", "unverified-domain", "no-address", "disabled"])
    .nullable()
    .describe("Why no webhook would be called; null when the address would be delivered to."),
});

export const DOMAIN_OPERATIONS: OperationSpec[] = [
  {
    method: "get",
    path: "/api/domains",
    tag,
    operationId: "listDomains",
    summary: "List your domains",
    description: "Newest first.",
    access: "session-or-key",
    success: {
      status: 200,
      description: "The domains.",
      content: { "application/json": z.object({ domains: z.array(domainResponseSchema) }) },
    },
    errors: [],
  },
  {
    method: "post",
    path: "/api/domains",
    tag,
    operationId: "createDomain",
    summary: "Add a domain",
    description:
      "Adds a `pending` domain and answers the TXT and MX records to set. The name is checked in this order: " +
      "`domain.invalid` (not a DNS name with a dot, an IP address, `localhost`, over 253 characters or a label over 63), " +
      "`domain.reserved` (one of this instance's own domains, its MX host name, or a name under one), " +
      "`domain.already_exists` (this account has it), `domain.taken` (another account verified it), " +
      "`domains.limit_reached` (the plan's domains: free 1, pro 20).",
    access: "session-or-key",
    requestBody: { content: { "application/json": createDomainSchema } },
    success: { status: 201, description: "The domain, pending.", content: domainContent },
    errors: ["domain.invalid", "domain.reserved", "domain.already_exists", "domain.taken", "domains.limit_reached"],
  },
  {
    method: "get",
    path: "/api/domains/route",
    tag,
    operationId: "previewDomainRoute",
    summary: "Where would this address go?",
    description:
      "Routes `to` on one of your own domains as mail is routed (the tag removed): its exact address, else the " +
      "matching pattern with the most literal characters (ties: the oldest), else the catch-all. A domain you do not " +
      "have (another account's, or this instance's own) answers `unknown-domain`; one of yours still pending, " +
      "`unverified-domain`; no address matching, `no-address`; a disabled address, `disabled` (its mail is recorded, not delivered).",
    access: "session-or-key",
    query: domainRouteQuerySchema,
    queryDescriptions: { to: "The address to route, such as orders-eu+q3@example.org." },
    success: { status: 200, description: "The route.", content: { "application/json": domainRouteResponseSchema } },
    errors: ["domain.invalid_address"],
  },
  {
    method: "get",
    path: "/api/domains/{domainId}",
    tag,
    operationId: "getDomain",
    summary: "Get a domain",
    access: "session-or-key",
    success: { status: 200, description: "The domain.", content: domainContent },
    errors: ["domain.not_found"],
  },
  {
    method: "post",
    path: "/api/domains/{domainId}/verify",
    tag,
    operationId: "verifyDomain",
    summary: "Check a domain's DNS records now",
    description:
      "Asks the DNS (within 5 s) for the TXT record of `_hookmail.<name>` and the name's MX records. Both right: " +
      "`verified`. Otherwise `pending` (`failing` for a domain that was verified), with `lastCheckError` naming each " +
      "record missing or wrong. A name another account holds stays `pending` here.",
    access: "session-or-key",
    success: { status: 200, description: "The domain after the check.", content: domainContent },
    errors: ["domain.not_found"],
  },
  {
    method: "delete",
    path: "/api/domains/{domainId}",
    tag,
    operationId: "deleteDomain",
    summary: "Delete a domain",
    description: "Refused while one of your addresses is on it.",
    access: "session-or-key",
    success: { status: 204, description: "Deleted." },
    errors: ["domain.not_found", "domain.in_use"],
  },
];
