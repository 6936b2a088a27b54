// Limits and reserved names of email callbacks.
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 64;
export const WEBHOOK_SECRET_MIN_LENGTH = 16;
export const WEBHOOK_SECRET_MAX_LENGTH = 128;
export const GENERATED_WEBHOOK_SECRET_LENGTH = 42;
export const RANDOM_USERNAME_MAX_NUMBER = 999;
export const MAX_ALLOWED_ORIGINS = 100;

/** How attachments reach the webhook: base64 in the body, or signed expiring links (docs/webhooks.md). */
export const ATTACHMENT_DELIVERIES = ["inline", "url"] as const;
/** "dmarc": only a mail whose DMARC result is pass is delivered; any other is recorded authentication-failed. */
export const AUTHENTICATION_POLICIES = ["none", "dmarc"] as const;
/** The spam thresholds an address may set (rspamd scores; 15 is its usual reject score). */
export const SPAM_THRESHOLD_MIN = 0;
export const SPAM_THRESHOLD_MAX = 1000;

/** Letters, digits, dashes, dots and underscores; starts and ends with a letter or digit. */
export const USERNAME_PATTERN = /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/i;
export const USERNAME_CHARACTERS_PATTERN = /^[a-z0-9._-]*$/i;
/** On a user's own domain a username may also hold `*`, each standing for one or more characters. */
export const USERNAME_OR_PATTERN_CHARACTERS_PATTERN = /^[a-z0-9._*-]*$/i;
export const USERNAME_WILDCARD = "*";

/**
 * How an address's username matches a recipient's local part, stored as a number so the routing
 * query orders by it: exact first, then patterns, then the catch-all (docs/domains.md: Routing).
 */
export const ADDRESS_MATCH_KIND = { EXACT: 0, PATTERN: 1, CATCH_ALL: 2 } as const;
export type AddressMatchKind = (typeof ADDRESS_MATCH_KIND)[keyof typeof ADDRESS_MATCH_KIND];
/** The names of the kinds in the API (`GET /api/domains/route`). */
export const ADDRESS_MATCH_NAMES = { 0: "exact", 1: "pattern", 2: "catch-all" } as const satisfies Record<
  AddressMatchKind,
  string
>;

/**
 * Local parts nobody may claim: role addresses of RFC 2142 and common practice, system accounts,
 * words that impersonate the service, and brand names.
 */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  // RFC 2142 and mail infrastructure
  "postmaster",
  "abuse",
  "hostmaster",
  "webmaster",
  "mailer-daemon",
  "mailerdaemon",
  "mail-daemon",
  "noc",
  "security",
  "info",
  "marketing",
  "sales",
  "support",
  "uucp",
  "usenet",
  "news",
  "www",
  "ftp",
  "mail",
  "smtp",
  "imap",
  "pop",
  "pop3",
  "mx",
  "dmarc",
  "dkim",
  "spf",
  "bounce",
  "bounces",
  "listserv",
  "majordomo",
  "list",
  "lists",
  "list-request",
  "owner",
  "request",
  // system accounts
  "root",
  "admin",
  "administrator",
  "sysadmin",
  "system",
  "daemon",
  "bin",
  "nobody",
  "operator",
  "sys",
  "sync",
  "shutdown",
  "halt",
  "guest",
  "user",
  "users",
  "test",
  "tester",
  "demo",
  "localhost",
  // service and trust words
  "noreply",
  "no-reply",
  "no_reply",
  "donotreply",
  "do-not-reply",
  "reply",
  "billing",
  "payments",
  "payment",
  "invoice",
  "invoices",
  "accounts",
  "account",
  "accounting",
  "finance",
  "legal",
  "privacy",
  "compliance",
  "verify",
  "verification",
  "validate",
  "password",
  "passwords",
  "reset",
  "login",
  "signin",
  "signup",
  "register",
  "auth",
  "oauth",
  "sso",
  "team",
  "staff",
  "help",
  "helpdesk",
  "contact",
  "feedback",
  "hello",
  "hi",
  "office",
  "press",
  "media",
  "jobs",
  "careers",
  "hr",
  "status",
  "alerts",
  "alert",
  "notifications",
  "notification",
  "notify",
  "newsletter",
  "api",
  "apps",
  "app",
  "dev",
  "developer",
  "developers",
  "ops",
  "devops",
  "it",
  "cert",
  "certificates",
  "ssl",
  "tls",
  "registrar",
  "domains",
  "dns",
  "whois",
  "official",
  "trust",
  "safety",
  "fraud",
  "phishing",
  "spam",
  "report",
  "moderator",
  "mod",
  "owner-hookmail",
  // our brand
  "hookmail",
  "hookmail-support",
  "hookmail-team",
  "webhook",
  "webhooks",
  // well-known brands
  "google",
  "gmail",
  "microsoft",
  "outlook",
  "hotmail",
  "apple",
  "icloud",
  "amazon",
  "aws",
  "paypal",
  "stripe",
  "github",
  "gitlab",
  "facebook",
  "meta",
  "instagram",
  "whatsapp",
  "twitter",
  "linkedin",
  "netflix",
  "yahoo",
  "proton",
  "protonmail",
  "cloudflare",
  "mailgun",
  "sendgrid",
  "postmark",
  "twilio",
  "slack",
  "discord",
  "zoom",
  "dropbox",
  "adobe",
  "oracle",
  "ibm",
  "visa",
  "mastercard",
  "coinbase",
  "binance",
]);
