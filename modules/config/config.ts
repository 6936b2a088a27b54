// The only reader of process.env. Parses the environment once per process into a typed, validated
// Config; a bad value raises a ConfigError naming each variable and what it allows.
import path from "node:path";
import { PLAN_ID, type PlanId } from "@/modules/plans/plans.constants";
import { type Environment, environmentSchema, HOOKMAIL_ROLES, type HookmailRole } from "./config.schemas";

export type Config = {
  nodeEnv: Environment["NODE_ENV"];
  isProduction: boolean;
  /**
   * Serving real users: NODE_ENV=production or an https BASE_URL. Then links that grant access
   * (verification, password reset) never go to the log, and start-up warns when SMTP_URL is unset.
   */
  isProductionDeployment: boolean;
  databaseUrl: string | undefined;
  dataDir: string;
  baseUrl: string;
  port: number;
  roles: HookmailRole[];
  smtp: {
    host: string;
    port: number;
    tls: { certPath: string; keyPath: string } | undefined;
    /** Concurrent sessions in all, and from one client address (IPv6 grouped by /64). */
    maxClients: number;
    maxClientsPerIp: number;
    /** Unknown RCPT TO per session before 421 and disconnect. */
    maxUnknownRecipients: number;
    /** Longest session, whatever the client sends. */
    maxSessionMs: number;
  };
  auth: {
    secret: string | undefined;
    isRegistrationEnabled: boolean;
    isPasswordResetEnabled: boolean;
    isEmailVerificationRequired: boolean;
    showLegalLinks: boolean;
    /** The instance's terms of service and privacy policy; unset, its link is not shown. */
    legalLinks: { termsUrl: string | undefined; privacyUrl: string | undefined };
    isRateLimitEnabled: boolean;
    github: OAuthClient | undefined;
    google: OAuthClient | undefined;
  };
  emailDomains: string[];
  inbound: {
    secret: string | undefined;
    mailgunSigningKey: string | undefined;
    maxMessageBytes: number;
    /**
     * Group commit of accepted mail: the first mail of a group waits up to `windowMs` for others, a
     * group holds at most `maxGroup` mails (1: off).
     */
    acceptGroups: { windowMs: number; maxGroup: number };
  };
  webhook: { timeoutMs: number; allowPrivateTargets: boolean };
  /**
   * The bearer token of GET /api/metrics (unset: the route answers 404), and the port of the
   * process's own metrics listener (unset: none) and the address it listens on (loopback unless set).
   */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  /** Resolvers for mail authentication, webhook host checks and domain checks (`ip` or `ip:port`); empty: the system's. */
  dnsServers: string[];
  /** The host name users point their own domains' MX record at (docs/domains.md). */
  mxHostname: string;
  /** What is checked on each mail: SPF, DKIM, DMARC and ARC, and rspamd's score when a URL is set. */
  mailChecks: { authentication: boolean; rspamdUrl: string | undefined };
  /** How long a final mail's raw message, payload and attachment links stay available. */
  contentRetentionMs: number;
  /** How often the worker looks for users' domains due their daily re-check (docs/domains.md: Daily re-check). */
  domainRecheckSweepMs: number;
  mail: { smtpUrl: string | undefined; from: string };
  billing: {
    isEnabled: boolean;
    secretKey: string | undefined;
    webhookSecret: string | undefined;
    proPriceId: string | undefined;
    apiUrl: string | undefined;
  };
  analytics: { posthogKey: string | undefined; posthogHost: string | undefined };
  plans: Record<PlanId, { maxEmails: number }>;
  /** Things an operator should know about defaults in use, logged once at start. */
  notices: string[];
};

type OAuthClient = { clientId: string; clientSecret: string };

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${problems.map(({ variable, message }) => `  ${variable}: ${message}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({ variable: String(issue.path[0] ?? "environment"), message: issue.message })),
    );
  }
  const values = parsed.data;
  const problems = findCrossVariableProblems(values);
  if (problems.length > 0) throw new ConfigError(problems);
  return buildConfig(values);
}

function findCrossVariableProblems(values: Environment) {
  const problems: { variable: string; message: string }[] = [];
  const isSplit = values.HOOKMAIL_ROLES.length < HOOKMAIL_ROLES.length;
  // Processes sharing the embedded server share DATA_DIR, and with it the generated secret; on a
  // PostgreSQL server of their own they may be on several machines.
  if (isSplit && values.DATABASE_URL && !values.AUTH_SECRET) {
    problems.push({ variable: "AUTH_SECRET", message: "must be set when roles are split across processes on DATABASE_URL" });
  }
  if (values.METRICS_PORT !== undefined) {
    if (!values.METRICS_TOKEN) problems.push({ variable: "METRICS_TOKEN", message: "must be set when METRICS_PORT is" });
    const taken = [
      values.HOOKMAIL_ROLES.includes("web") ? ["PORT", values.PORT] : undefined,
      values.HOOKMAIL_ROLES.includes("smtp") ? ["SMTP_PORT", values.SMTP_PORT] : undefined,
    ].find((entry) => entry?.[1] === values.METRICS_PORT);
    if (taken) problems.push({ variable: "METRICS_PORT", message: `must differ from ${taken[0]}` });
  }
  const pairs = [
    ["SMTP_TLS_CERT", "SMTP_TLS_KEY"],
    ["GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET"],
    ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
    ["NEXT_PUBLIC_POSTHOG_KEY", "NEXT_PUBLIC_POSTHOG_HOST"],
  ] as const;
  for (const [first, second] of pairs) {
    if (Boolean(values[first]) !== Boolean(values[second])) {
      const missing = values[first] ? second : first;
      problems.push({ variable: missing, message: `must be set together with ${missing === first ? second : first}` });
    }
  }
  return problems;
}

function buildConfig(values: Environment): Config {
  const notices: string[] = [];
  const emailDomains = values.EMAIL_DOMAINS.length > 0 ? values.EMAIL_DOMAINS : ["localhost"];
  if (values.EMAIL_DOMAINS.length === 0) {
    notices.push('EMAIL_DOMAINS is not set: addresses can only be created on "localhost".');
  }
  const baseUrl = values.BASE_URL ?? `http://localhost:${values.PORT}`;
  const oauthClient = (clientId: string | undefined, clientSecret: string | undefined) =>
    clientId && clientSecret ? { clientId, clientSecret } : undefined;
  return {
    nodeEnv: values.NODE_ENV,
    isProduction: values.NODE_ENV === "production",
    isProductionDeployment: values.NODE_ENV === "production" || /^https:/i.test(values.BASE_URL ?? ""),
    databaseUrl: values.DATABASE_URL,
    dataDir: path.resolve(values.DATA_DIR),
    baseUrl,
    port: values.PORT,
    roles: values.HOOKMAIL_ROLES,
    smtp: {
      host: values.SMTP_HOST,
      port: values.SMTP_PORT,
      tls:
        values.SMTP_TLS_CERT && values.SMTP_TLS_KEY
          ? { certPath: values.SMTP_TLS_CERT, keyPath: values.SMTP_TLS_KEY }
          : undefined,
      maxClients: values.SMTP_MAX_CLIENTS,
      maxClientsPerIp: values.SMTP_MAX_CLIENTS_PER_IP,
      maxUnknownRecipients: values.SMTP_MAX_UNKNOWN_RECIPIENTS,
      maxSessionMs: values.SMTP_MAX_SESSION_MS,
    },
    auth: {
      secret: values.AUTH_SECRET,
      isRegistrationEnabled: values.AUTH_REGISTRATION_ENABLED,
      isPasswordResetEnabled: values.AUTH_PASSWORD_RESET_ENABLED,
      isEmailVerificationRequired: values.AUTH_EMAIL_VERIFICATION_REQUIRED,
      showLegalLinks: values.AUTH_SHOW_LEGAL_LINKS,
      legalLinks: { termsUrl: values.TERMS_URL, privacyUrl: values.PRIVACY_URL },
      isRateLimitEnabled: values.AUTH_RATE_LIMIT_ENABLED,
      github: oauthClient(values.GITHUB_CLIENT_ID, values.GITHUB_CLIENT_SECRET),
      google: oauthClient(values.GOOGLE_CLIENT_ID, values.GOOGLE_CLIENT_SECRET),
    },
    emailDomains,
    inbound: {
      secret: values.INBOUND_SECRET,
      mailgunSigningKey: values.MAILGUN_SIGNING_KEY,
      maxMessageBytes: values.MAX_MESSAGE_BYTES,
      acceptGroups: { windowMs: values.ACCEPT_GROUP_WINDOW_MS, maxGroup: values.ACCEPT_GROUP_MAX },
    },
    webhook: { timeoutMs: values.WEBHOOK_TIMEOUT_MS, allowPrivateTargets: values.WEBHOOK_ALLOW_PRIVATE_TARGETS },
    metrics: { token: values.METRICS_TOKEN, port: values.METRICS_PORT, host: values.METRICS_HOST },
    dnsServers: values.DNS_SERVERS,
    mxHostname: values.MX_HOSTNAME ?? new URL(baseUrl).hostname.toLowerCase(),
    mailChecks: { authentication: values.MAIL_AUTH_CHECKS, rspamdUrl: values.RSPAMD_URL },
    contentRetentionMs: values.CONTENT_RETENTION_HOURS * 3_600_000,
    domainRecheckSweepMs: values.DOMAIN_RECHECK_SWEEP_MS,
    mail: { smtpUrl: values.SMTP_URL, from: values.MAIL_FROM ?? `Hookmail <no-reply@${emailDomains[0]}>` },
    billing: {
      isEnabled: Boolean(values.STRIPE_SECRET_KEY && values.STRIPE_PRO_PRICE_ID),
      secretKey: values.STRIPE_SECRET_KEY,
      webhookSecret: values.STRIPE_WEBHOOK_SECRET,
      proPriceId: values.STRIPE_PRO_PRICE_ID,
      apiUrl: values.STRIPE_API_URL,
    },
    analytics: { posthogKey: values.NEXT_PUBLIC_POSTHOG_KEY, posthogHost: values.NEXT_PUBLIC_POSTHOG_HOST },
    plans: {
      [PLAN_ID.FREE]: { maxEmails: values.PLAN_FREE_MAX_EMAILS },
      [PLAN_ID.PRO]: { maxEmails: values.PLAN_PRO_MAX_EMAILS },
    },
    notices,
  };
}
