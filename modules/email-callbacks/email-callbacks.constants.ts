// Limits and reserved names of email callbacks.
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 64;
export const WEBHOOK_SECRET_MIN_LENGTH = 16;
export const WEBHOOK_SECRET_MAX_LENGTH = 128;
export const GENERATED_WEBHOOK_SECRET_LENGTH = 42;
export const RANDOM_USERNAME_MAX_NUMBER = 999;
export const MAX_ALLOWED_ORIGINS = 100;

/** Letters, digits, dashes, dots and underscores; starts and ends with a letter or digit. */
export const USERNAME_PATTERN = /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/i;
export const USERNAME_CHARACTERS_PATTERN = /^[a-z0-9._-]*$/i;

/**
 * Local parts nobody may claim: role addresses of RFC 2142 and common practice, system accounts,
 * words that impersonate the service, and brand names.
 */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  // RFC 2142 and mail infrastructure
  "postmaster", "abuse", "hostmaster", "webmaster", "mailer-daemon", "mailerdaemon", "mail-daemon",
  "noc", "security", "info", "marketing", "sales", "support", "uucp", "usenet", "news", "www",
  "ftp", "mail", "smtp", "imap", "pop", "pop3", "mx", "dmarc", "dkim", "spf", "bounce", "bounces",
  "listserv", "majordomo", "list", "lists", "list-request", "owner", "request",
  // system accounts
  "root", "admin", "administrator", "sysadmin", "system", "daemon", "bin", "nobody", "operator",
  "sys", "sync", "shutdown", "halt", "guest", "user", "users", "test", "tester", "demo", "localhost",
  // service and trust words
  "noreply", "no-reply", "no_reply", "donotreply", "do-not-reply", "reply", "billing", "payments",
  "payment", "invoice", "invoices", "accounts", "account", "accounting", "finance", "legal",
  "privacy", "compliance", "verify", "verification", "validate", "password", "passwords", "reset",
  "login", "signin", "signup", "register", "auth", "oauth", "sso", "team", "staff", "help",
  "helpdesk", "contact", "feedback", "hello", "hi", "office", "press", "media", "jobs", "careers",
  "hr", "status", "alerts", "alert", "notifications", "notification", "notify", "newsletter",
  "api", "apps", "app", "dev", "developer", "developers", "ops", "devops", "it", "cert",
  "certificates", "ssl", "tls", "registrar", "domains", "dns", "whois", "official", "trust",
  "safety", "fraud", "phishing", "spam", "report", "moderator", "mod", "owner-hookmail",
  // our brand
  "hookmail", "hookmail-support", "hookmail-team", "webhook", "webhooks",
  // well-known brands
  "google", "gmail", "microsoft", "outlook", "hotmail", "apple", "icloud", "amazon", "aws",
  "paypal", "stripe", "github", "gitlab", "facebook", "meta", "instagram", "whatsapp", "twitter",
  "linkedin", "netflix", "yahoo", "proton", "protonmail", "cloudflare", "mailgun", "sendgrid",
  "postmark", "twilio", "slack", "discord", "zoom", "dropbox", "adobe", "oracle", "ibm", "visa",
  "mastercard", "coinbase", "binance",
]);
