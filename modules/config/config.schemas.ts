// The environment's contract (README: Configuration): one zod schema per variable, with defaults that make
// the embedded mode work with no setup. Each message says what is allowed.
import { isIP } from "node:net";
import { z } from "zod";
import { LOG_FORMATS, LOG_LEVELS } from "@/modules/shared/logging/logging.constants";

export const HOOKMAIL_ROLES = ["web", "smtp", "worker"] as const;
export type HookmailRole = (typeof HOOKMAIL_ROLES)[number];

const booleanSchema = (defaultValue: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") return defaultValue;
      if (value === "true" || value === "1") return true;
      if (value === "false" || value === "0") return false;
      ctx.addIssue({ code: "custom", message: "must be true or false" });
      return z.NEVER;
    });

/** A whole number in [min, max], or the issue that says so. */
function parseWholeNumber(value: string, { min, max }: { min: number; max: number }, ctx: z.RefinementCtx) {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    ctx.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max}` });
    return z.NEVER;
  }
  return parsed;
}

const integerSchema = ({ defaultValue, min, max }: { defaultValue: number; min: number; max: number }) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => (value === undefined || value === "" ? defaultValue : parseWholeNumber(value, { min, max }, ctx)));

/** A port that is off unless set. */
const optionalPortSchema = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) =>
    value === undefined || value === "" ? undefined : parseWholeNumber(value, { min: 1, max: 65535 }, ctx),
  );

const optionalStringSchema = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const urlSchema = ({ protocols, message }: { protocols: string[]; message: string }) =>
  optionalStringSchema.refine((value) => {
    if (value === undefined) return true;
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, message);

const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

const emailDomainsSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const domains = (value ?? "")
      .split(",")
      .map((domain) => domain.trim().toLowerCase())
      .filter(Boolean);
    const invalid = domains.filter((domain) => !DOMAIN_PATTERN.test(domain));
    if (invalid.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `must be a comma-separated list of domain names (invalid: ${invalid.join(", ")})`,
      });
      return z.NEVER;
    }
    return [...new Set(domains)];
  });

const rolesSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const roles = (value?.trim() ? value : HOOKMAIL_ROLES.join(","))
      .split(",")
      .map((role) => role.trim().toLowerCase())
      .filter(Boolean);
    const unknown = roles.filter((role) => !(HOOKMAIL_ROLES as readonly string[]).includes(role));
    if (roles.length === 0 || unknown.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `must be a comma-separated list of ${HOOKMAIL_ROLES.join(", ")}${unknown.length ? ` (unknown: ${unknown.join(", ")})` : ""}`,
      });
      return z.NEVER;
    }
    return HOOKMAIL_ROLES.filter((role) => roles.includes(role));
  });

/** A word from a short list, in any case; unset stays unset (the default is decided where it is used). */
const oneOfSchema = (values: readonly string[]) =>
  optionalStringSchema.refine(
    (value) => value === undefined || values.includes(value.toLowerCase()),
    `must be one of ${values.join(", ")}`,
  );

/** `ip`, `ipv4:port` or `[ipv6]:port`: the resolvers DNS_SERVERS lists (node:dns's setServers forms). */
function isDnsServer(server: string): boolean {
  const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(server);
  const withPort = /^([\d.]+):(\d{1,5})$/.exec(server);
  const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : withPort ? [withPort[1]!, withPort[2]] : [server, undefined];
  const isPortValid = port === undefined || (Number(port) >= 1 && Number(port) <= 65_535);
  return isPortValid && (bracketed ? isIP(host) === 6 : isIP(host) !== 0);
}

/** An address to listen on: an IPv4 or IPv6 address (without brackets), or a host name. */
const listenHostSchema = (defaultValue: string) =>
  optionalStringSchema.transform((value, context) => {
    if (value === undefined) return defaultValue;
    if (isIP(value) !== 0 || DOMAIN_PATTERN.test(value.toLowerCase())) return value;
    context.addIssue({ code: "custom", message: "must be an IP address (such as 127.0.0.1, 0.0.0.0 or ::) or a host name" });
    return z.NEVER;
  });

/** A host name as DNS writes it (lowercase, no trailing dot); unset stays unset (BASE_URL's host is the default). */
const hostNameSchema = optionalStringSchema.transform((value, context) => {
  if (value === undefined) return undefined;
  const name = value.toLowerCase().replace(/\.$/, "");
  if (isIP(name) === 0 && DOMAIN_PATTERN.test(name)) return name;
  context.addIssue({ code: "custom", message: "must be a host name such as mx.example.com" });
  return z.NEVER;
});

const dnsServersSchema = optionalStringSchema.transform((value, context) => {
  const servers = (value ?? "")
    .split(",")
    .map((server) => server.trim())
    .filter(Boolean);
  const invalid = servers.filter((server) => !isDnsServer(server));
  if (invalid.length > 0) {
    context.addIssue({
      code: "custom",
      message: `must be a comma-separated list of ip or ip:port (invalid: ${invalid.join(", ")})`,
    });
  }
  return servers;
});

export const environmentSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).optional().default("development"),
  DATABASE_URL: urlSchema({
    protocols: ["postgres:", "postgresql:"],
    message: "must be a postgres:// or postgresql:// connection string",
  }),
  DATA_DIR: optionalStringSchema.transform((value) => value ?? "./data"),
  BASE_URL: urlSchema({ protocols: ["http:", "https:"], message: "must be an http(s) URL" }).transform((value) =>
    value?.replace(/\/+$/, ""),
  ),
  PORT: integerSchema({ defaultValue: 3000, min: 1, max: 65535 }),
  SMTP_PORT: integerSchema({ defaultValue: 2525, min: 1, max: 65535 }),
  SMTP_HOST: optionalStringSchema.transform((value) => value ?? "0.0.0.0"),
  SMTP_TLS_CERT: optionalStringSchema,
  SMTP_MAX_CLIENTS: integerSchema({ defaultValue: 1000, min: 1, max: 100_000 }),
  SMTP_MAX_CLIENTS_PER_IP: integerSchema({ defaultValue: 20, min: 1, max: 100_000 }),
  SMTP_MAX_UNKNOWN_RECIPIENTS: integerSchema({ defaultValue: 20, min: 0, max: 10_000 }),
  SMTP_MAX_SESSION_MS: integerSchema({ defaultValue: 600_000, min: 1000, max: 86_400_000 }),
  SMTP_TLS_KEY: optionalStringSchema,
  HOOKMAIL_ROLES: rolesSchema,
  LOG_LEVEL: oneOfSchema(LOG_LEVELS),
  LOG_FORMAT: oneOfSchema(LOG_FORMATS),
  AUTH_SECRET: optionalStringSchema.refine(
    (value) => value === undefined || value.length >= 32,
    "must be at least 32 characters (generate one with: openssl rand -base64 32)",
  ),
  EMAIL_DOMAINS: emailDomainsSchema,
  INBOUND_SECRET: optionalStringSchema.refine(
    (value) => value === undefined || value.length >= 16,
    "must be at least 16 characters",
  ),
  MAILGUN_SIGNING_KEY: optionalStringSchema,
  METRICS_TOKEN: optionalStringSchema.refine(
    (value) => value === undefined || value.length >= 16,
    "must be at least 16 characters (generate one with: openssl rand -base64 32)",
  ),
  METRICS_PORT: optionalPortSchema,
  /** Loopback by default: the figures are for a scraper on the same machine unless the operator opens them. */
  METRICS_HOST: listenHostSchema("127.0.0.1"),
  MAX_MESSAGE_BYTES: integerSchema({ defaultValue: 26_214_400, min: 1024, max: 1_073_741_824 }),
  /** Group commit of accepted mail (docs/architecture.md: Group commit): how long a group gathers, and its size. */
  ACCEPT_GROUP_WINDOW_MS: integerSchema({ defaultValue: 1, min: 0, max: 50 }),
  ACCEPT_GROUP_MAX: integerSchema({ defaultValue: 64, min: 1, max: 500 }),
  WEBHOOK_TIMEOUT_MS: integerSchema({ defaultValue: 15_000, min: 100, max: 300_000 }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanSchema(false),
  DNS_SERVERS: dnsServersSchema,
  MX_HOSTNAME: hostNameSchema,
  MAIL_AUTH_CHECKS: booleanSchema(true),
  RSPAMD_URL: urlSchema({ protocols: ["http:", "https:"], message: "must be an http(s) URL" }),
  CONTENT_RETENTION_HOURS: integerSchema({ defaultValue: 72, min: 1, max: 8760 }),
  DOMAIN_RECHECK_SWEEP_MS: integerSchema({ defaultValue: 3_600_000, min: 1000, max: 86_400_000 }),
  AUTH_REGISTRATION_ENABLED: booleanSchema(true),
  AUTH_PASSWORD_RESET_ENABLED: booleanSchema(true),
  AUTH_EMAIL_VERIFICATION_REQUIRED: booleanSchema(false),
  AUTH_SHOW_LEGAL_LINKS: booleanSchema(true),
  TERMS_URL: urlSchema({ protocols: ["http:", "https:"], message: "must be an http(s) URL" }),
  PRIVACY_URL: urlSchema({ protocols: ["http:", "https:"], message: "must be an http(s) URL" }),
  AUTH_RATE_LIMIT_ENABLED: booleanSchema(true),
  GITHUB_CLIENT_ID: optionalStringSchema,
  GITHUB_CLIENT_SECRET: optionalStringSchema,
  GOOGLE_CLIENT_ID: optionalStringSchema,
  GOOGLE_CLIENT_SECRET: optionalStringSchema,
  SMTP_URL: urlSchema({ protocols: ["smtp:", "smtps:"], message: "must be an smtp:// or smtps:// URL" }),
  MAIL_FROM: optionalStringSchema.refine(
    (value) => value === undefined || /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/.test(value),
    'must be an address such as hookmail@example.com or "Hookmail <hookmail@example.com>"',
  ),
  STRIPE_SECRET_KEY: optionalStringSchema,
  STRIPE_WEBHOOK_SECRET: optionalStringSchema,
  STRIPE_PRO_PRICE_ID: optionalStringSchema,
  STRIPE_API_URL: urlSchema({ protocols: ["http:", "https:"], message: "must be an http(s) URL" }),
  NEXT_PUBLIC_POSTHOG_KEY: optionalStringSchema,
  NEXT_PUBLIC_POSTHOG_HOST: urlSchema({ protocols: ["http:", "https:"], message: "must be an http(s) URL" }),
  PLAN_FREE_MAX_EMAILS: integerSchema({ defaultValue: 10, min: 0, max: 1_000_000 }),
  PLAN_PRO_MAX_EMAILS: integerSchema({ defaultValue: 100, min: 0, max: 1_000_000 }),
});

export type Environment = z.infer<typeof environmentSchema>;
