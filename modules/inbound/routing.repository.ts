// The routing of recipients (docs/domains.md: Routing): which live address each envelope recipient
// reaches, with what the pipeline needs of it and of its enabled endpoints, in one indexed statement,
// and whether a domain is served at all. The hot path of every RCPT and every mail: plain SQL.
import type { Database } from "@/modules/db/db";
import { prepared } from "@/modules/db/sql-executor";
import { ADDRESS_MATCH_NAMES, type AddressMatchKind } from "@/modules/email-callbacks/email-callbacks.constants";

export type InboundCallback = {
  id: string;
  domain: string;
  username: string;
  isEnabled: boolean;
  allowedOrigins: string[];
  webhookUrl: string;
  webhookSecret: string | null;
  attachmentDelivery: "inline" | "url";
  authenticationPolicy: "none" | "dmarc";
  spamThreshold: number | null;
  /** Its enabled endpoints, in creation order (the first is webhookUrl / webhookSecret's). */
  endpoints: InboundEndpoint[];
};

/** What the pipeline knows of an endpoint: enough to write its delivery and make its first attempt. */
export type InboundEndpoint = {
  id: string;
  url: string;
  format: "json" | "raw";
  signingScheme: "hmac" | "ed25519" | "none";
  secret: string | null;
  publicKey: string | null;
  privateKeyEncrypted: string | null;
  headers: Record<string, string>;
  timeoutMs: number | null;
  filter: unknown;
};

/** The address a recipient reaches, and how its username matched the recipient's local part. */
export type InboundRoute = { callback: InboundCallback; match: (typeof ADDRESS_MATCH_NAMES)[AddressMatchKind] };

/** A recipient to route: its domain and its local part without the tag, both lower-cased. */
export type RecipientKey = { domain: string; username: string };

const CALLBACK_COLUMNS = `id, domain, username, "isEnabled", "allowedOrigins", "webhookUrl", "webhookSecret",
  "attachmentDelivery", "authenticationPolicy", "spamThreshold"`;

/**
 * The route of one recipient (`$1` its domain, `$2` its local part without the tag, `$3` the
 * operator's domains): the live address of the domain whose username is the local part, else the
 * matching pattern with the most literal characters (ties: the oldest), else the catch-all
 * (docs/domains.md: Routing). The exact address is found through the unique (domain, username)
 * index and the patterns through the partial index of the domain's patterns, so one statement
 * reads only the domain's exact match and its patterns. An address on a user's domain routes only
 * while its owner holds the domain (verified or failing: not pending), read once through the unique
 * index of held names.
 */
const ROUTE_CONDITION = (domain: string, localPart: string, operatorDomains: string) => `
  c."deletedAt" IS NULL AND c.domain = ${domain}
  AND ((c."matchKind" = 0 AND c.username = ${localPart}) OR (c."matchKind" > 0 AND ${localPart} LIKE c."likePattern"))
  AND (c.domain = ANY(${operatorDomains}) OR c."userId" = (
    SELECT d."userId" FROM domain d WHERE d.name = ${domain} AND d.status <> 'pending'))
  ORDER BY c."matchKind", c."literalCount" DESC, c."createdAt", c.id
  LIMIT 1`;
/** The address's enabled endpoints, in creation order, as one JSON value (one index range read). */
const ENDPOINTS_COLUMN = `(
  SELECT COALESCE(json_agg(json_build_object('id', e.id, 'url', e.url, 'format', e.format, 'signingScheme', e."signingScheme",
    'secret', e.secret, 'publicKey', e."publicKey", 'privateKeyEncrypted', e."privateKeyEncrypted", 'headers', e.headers, 'timeoutMs', e."timeoutMs",
    'filter', e.filter) ORDER BY e."createdAt", e.id), '[]')
  FROM endpoint e WHERE e."emailCallbackId" = c.id AND e."deletedAt" IS NULL AND e."isEnabled") AS endpoints`;
const ROUTE_COLUMNS = `${CALLBACK_COLUMNS.split(",")
  .map((column) => `c.${column.trim()}`)
  .join(", ")}, ${ENDPOINTS_COLUMN}`;
export const FIND_ROUTE = prepared(
  "find_route",
  `SELECT ${ROUTE_COLUMNS}, c."matchKind" FROM email_callback c WHERE ${ROUTE_CONDITION("$1", "$2", "$3::text[]")}`,
);
/** FIND_ROUTE for several recipients in one statement: one row per recipient routed, with its position. */
const FIND_ROUTES = prepared(
  "find_routes",
  `SELECT r.position::int AS position, route.* FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS r(domain, local_part, position)
   CROSS JOIN LATERAL (
     SELECT ${ROUTE_COLUMNS}, c."matchKind" FROM email_callback c WHERE ${ROUTE_CONDITION("r.domain", "r.local_part", "$3::text[]")}
   ) route`,
);
/** Whether an account holds the domain (verified, or failing during its grace period). */
const IS_SERVED_DOMAIN = prepared(
  "is_served_domain",
  `SELECT EXISTS (SELECT 1 FROM domain WHERE name = $1 AND status <> 'pending') AS served`,
);

/** One account's claim of a domain name, and whether it holds it (verified or failing). */
const FIND_DOMAIN_OF_USER = `SELECT status IN ('verified', 'failing') AS "isHeld" FROM domain WHERE name = $1 AND "userId" = $2`;

type RouteRow = InboundCallback & { allowedOrigins: string[] | null; matchKind: AddressMatchKind };
const toRoute = ({ matchKind, ...row }: RouteRow): InboundRoute => ({
  callback: { ...row, allowedOrigins: row.allowedOrigins ?? [] },
  match: ADDRESS_MATCH_NAMES[matchKind],
});

export function createRoutingQueries({ executor }: Pick<Database, "executor">) {
  return {
    /**
     * The route of each recipient, in their order: the address it reaches (live, enabled or not)
     * or null. Addresses on the operator's domains need no held domain.
     */
    findRoutes: async (recipients: RecipientKey[], operatorDomains: readonly string[]): Promise<(InboundRoute | null)[]> => {
      if (recipients.length === 0) return [];
      const rows = await executor.query<RouteRow & { position: number }>(FIND_ROUTES, [
        recipients.map(({ domain }) => domain),
        recipients.map(({ username }) => username),
        [...operatorDomains],
      ]);
      const routes: (InboundRoute | null)[] = recipients.map(() => null);
      for (const { position, ...row } of rows) routes[position - 1] = toRoute(row);
      return routes;
    },

    /** The route of one recipient (findRoutes for one, through its own statement). */
    findRoute: async ({ domain, username }: RecipientKey, operatorDomains: readonly string[]): Promise<InboundRoute | null> => {
      const [row] = await executor.query<RouteRow>(FIND_ROUTE, [domain, username, [...operatorDomains]]);
      return row ? toRoute(row) : null;
    },

    /** The user's claim of a domain name (the route preview's), or null when the user has none. */
    findDomainOfUser: async ({ userId, name }: { userId: string; name: string }): Promise<{ isHeld: boolean } | null> => {
      const [row] = await executor.query<{ isHeld: boolean }>(FIND_DOMAIN_OF_USER, [name, userId]);
      return row ?? null;
    },

    /** Whether an account holds this domain (verified or failing): mail to it may be routed. */
    isServedDomain: async (name: string): Promise<boolean> => {
      const [row] = await executor.query<{ served: boolean }>(IS_SERVED_DOMAIN, [name]);
      return row?.served === true;
    },
  };
}
