import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";
import { formatPublicConfig } from "./config.models";

function getProblems(env: Record<string, string>) {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("loadConfig", () => {
  it("needs no variable at all: the embedded defaults of README: Configuration", () => {
    const config = loadConfig({});
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/data$/);
    expect(config.baseUrl).toBe("http://localhost:3000");
    expect(config.port).toBe(3000);
    expect(config.smtp).toEqual({
      host: "0.0.0.0",
      port: 2525,
      tls: undefined,
      maxClients: 1000,
      maxClientsPerIp: 20,
      maxUnknownRecipients: 20,
      maxSessionMs: 600_000,
    });
    expect(config.roles).toEqual(["web", "smtp", "worker"]);
    expect(config.emailDomains).toEqual(["localhost"]);
    expect(config.inbound.maxMessageBytes).toBe(26_214_400);
    expect(config.webhook).toEqual({ timeoutMs: 15_000, allowPrivateTargets: false });
    expect(config.auth).toMatchObject({
      isRegistrationEnabled: true,
      isPasswordResetEnabled: true,
      isEmailVerificationRequired: false,
      showLegalLinks: true,
      github: undefined,
      google: undefined,
    });
    expect(config.plans).toEqual({ free: { maxEmails: 10 }, pro: { maxEmails: 100 } });
    expect(config.billing.isEnabled).toBe(false);
  });

  it("logs a notice when EMAIL_DOMAINS falls back to localhost", () => {
    expect(loadConfig({}).notices.join()).toMatch(/EMAIL_DOMAINS/);
    expect(loadConfig({ EMAIL_DOMAINS: "mail.example.com" }).notices).toEqual([]);
  });

  it("parses lists, numbers and booleans", () => {
    const config = loadConfig({
      EMAIL_DOMAINS: " Mail.Example.com, hooks.example.org ,mail.example.com",
      PORT: "8080",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      AUTH_REGISTRATION_ENABLED: "0",
      BASE_URL: "https://hookmail.example.com/",
    });
    expect(config.emailDomains).toEqual(["mail.example.com", "hooks.example.org"]);
    expect(config.port).toBe(8080);
    expect(loadConfig({ PORT: "8080" }).baseUrl).toBe("http://localhost:8080");
    expect(config.webhook.allowPrivateTargets).toBe(true);
    expect(config.auth.isRegistrationEnabled).toBe(false);
    expect(config.baseUrl).toBe("https://hookmail.example.com");
  });

  it("names each bad variable and what it allows", () => {
    const problems = getProblems({
      PORT: "http",
      AUTH_SHOW_LEGAL_LINKS: "yes",
      DATABASE_URL: "mysql://localhost/db",
      EMAIL_DOMAINS: "ok.example.com,not a domain",
      HOOKMAIL_ROLES: "web,mail",
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        { variable: "PORT", message: "must be a whole number from 1 to 65535" },
        { variable: "AUTH_SHOW_LEGAL_LINKS", message: "must be true or false" },
        { variable: "DATABASE_URL", message: "must be a postgres:// or postgresql:// connection string" },
        { variable: "EMAIL_DOMAINS", message: "must be a comma-separated list of domain names (invalid: not a domain)" },
        { variable: "HOOKMAIL_ROLES", message: "must be a comma-separated list of web, smtp, worker (unknown: mail)" },
      ]),
    );
    expect(() => loadConfig({ PORT: "0" })).toThrow(/PORT: must be a whole number from 1 to 65535/);
  });

  it("lets split roles share the embedded server and its DATA_DIR, and asks for a shared AUTH_SECRET on DATABASE_URL", () => {
    expect(getProblems({ HOOKMAIL_ROLES: "worker" })).toEqual([]);
    expect(getProblems({ HOOKMAIL_ROLES: "worker", DATABASE_URL: "postgres://db/hookmail" })).toEqual([
      { variable: "AUTH_SECRET", message: "must be set when roles are split across processes on DATABASE_URL" },
    ]);
    const config = loadConfig({
      HOOKMAIL_ROLES: "smtp,web",
      DATABASE_URL: "postgres://db/hookmail",
      AUTH_SECRET: "x".repeat(32),
    });
    expect(config.roles).toEqual(["web", "smtp"]);
  });

  it("refuses half-configured pairs such as a GitHub client id without its secret", () => {
    expect(getProblems({ GITHUB_CLIENT_ID: "id" })).toEqual([
      { variable: "GITHUB_CLIENT_SECRET", message: "must be set together with GITHUB_CLIENT_ID" },
    ]);
  });
});

describe("formatPublicConfig", () => {
  it("has exactly the shape of the public config object GET /api/config answers", () => {
    expect(formatPublicConfig(loadConfig({ EMAIL_DOMAINS: "a.example.com,b.example.com" }))).toEqual({
      auth: {
        providers: { google: { isEnabled: false }, github: { isEnabled: false } },
        showLegalLinksOnAuthPage: false,
        legalLinks: { termsUrl: null, privacyUrl: null },
        isEmailVerificationRequired: false,
        isRegistrationEnabled: true,
        isPasswordResetEnabled: true,
      },
      baseUrl: "http://localhost:3000",
      emailCallbacks: { availableDomains: ["a.example.com", "b.example.com"] },
    });
  });

  it("follows the instance toggles and never exposes a secret", () => {
    const publicConfig = formatPublicConfig(
      loadConfig({
        GOOGLE_CLIENT_ID: "google-id",
        GOOGLE_CLIENT_SECRET: "google-secret",
        AUTH_REGISTRATION_ENABLED: "false",
        AUTH_PASSWORD_RESET_ENABLED: "false",
        AUTH_EMAIL_VERIFICATION_REQUIRED: "true",
        AUTH_SHOW_LEGAL_LINKS: "false",
        INBOUND_SECRET: "inbound-secret-value",
      }),
    );
    expect(publicConfig.auth).toEqual({
      providers: { google: { isEnabled: true }, github: { isEnabled: false } },
      showLegalLinksOnAuthPage: false,
      legalLinks: { termsUrl: null, privacyUrl: null },
      isEmailVerificationRequired: true,
      isRegistrationEnabled: false,
      isPasswordResetEnabled: false,
    });
    expect(JSON.stringify(publicConfig)).not.toMatch(/google-secret|google-id|inbound-secret/);
  });
});

describe("the legal links (TERMS_URL, PRIVACY_URL)", () => {
  const TERMS_URL = "https://example.org/terms";
  const PRIVACY_URL = "https://example.org/privacy";

  it("shows no legal link on an instance that sets neither URL, whatever AUTH_SHOW_LEGAL_LINKS says", () => {
    expect(formatPublicConfig(loadConfig({ AUTH_SHOW_LEGAL_LINKS: "true" })).auth).toMatchObject({
      showLegalLinksOnAuthPage: false,
      legalLinks: { termsUrl: null, privacyUrl: null },
    });
  });

  it("shows the links the operator set, each on its own", () => {
    expect(formatPublicConfig(loadConfig({ TERMS_URL, PRIVACY_URL })).auth).toMatchObject({
      showLegalLinksOnAuthPage: true,
      legalLinks: { termsUrl: TERMS_URL, privacyUrl: PRIVACY_URL },
    });
    expect(formatPublicConfig(loadConfig({ PRIVACY_URL })).auth).toMatchObject({
      showLegalLinksOnAuthPage: true,
      legalLinks: { termsUrl: null, privacyUrl: PRIVACY_URL },
    });
  });

  it("hides the links when AUTH_SHOW_LEGAL_LINKS is false, even with URLs set", () => {
    expect(
      formatPublicConfig(loadConfig({ TERMS_URL, PRIVACY_URL, AUTH_SHOW_LEGAL_LINKS: "false" })).auth.showLegalLinksOnAuthPage,
    ).toBe(false);
  });

  it("accepts only http(s) URLs", () => {
    expect(getProblems({ TERMS_URL: "javascript:alert(1)", PRIVACY_URL: "/privacy" })).toEqual([
      { variable: "TERMS_URL", message: "must be an http(s) URL" },
      { variable: "PRIVACY_URL", message: "must be an http(s) URL" },
    ]);
    expect(getProblems({ TERMS_URL: "ftp://example.org/terms" })).toEqual([
      { variable: "TERMS_URL", message: "must be an http(s) URL" },
    ]);
  });
});

describe("loadConfig with the variables of .env.example exported empty", () => {
  it("treats an empty value as unset", () => {
    const config = loadConfig({ HOOKMAIL_ROLES: "", EMAIL_DOMAINS: "", PORT: "", AUTH_SECRET: "", DATABASE_URL: "" });
    expect(config.roles).toEqual(["web", "smtp", "worker"]);
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
  });
});

describe(".env.example", () => {
  it("lists every variable the configuration reads, each with a comment above it", async () => {
    const { readFileSync } = await import("node:fs");
    const { environmentSchema } = await import("./config.schemas");
    const example = readFileSync(new URL("../../.env.example", import.meta.url), "utf8");
    const listed = [...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((match) => match[1]);
    const variables = Object.keys(environmentSchema.shape).filter((name) => name !== "NODE_ENV");
    expect(variables.filter((name) => !listed.includes(name))).toEqual([]);
    expect(listed.filter((name) => !variables.includes(name ?? ""))).toEqual([]);
  });
});

describe("mail checks", () => {
  it("default to authentication on, no spam engine, the system's resolvers and 72 h of content", () => {
    const config = loadConfig({});
    expect(config.mailChecks).toEqual({ authentication: true, rspamdUrl: undefined });
    expect(config.dnsServers).toEqual([]);
    expect(config.contentRetentionMs).toBe(72 * 3_600_000);
  });

  it("take DNS_SERVERS as ip, ipv4:port or [ipv6]:port, and refuse anything else by name", () => {
    expect(loadConfig({ DNS_SERVERS: "127.0.0.1:5353, ::1,[::1]:53" }).dnsServers).toEqual(["127.0.0.1:5353", "::1", "[::1]:53"]);
    expect(() => loadConfig({ DNS_SERVERS: "dns.example.com,1.2.3.4:99999" })).toThrow(
      /DNS_SERVERS: must be a comma-separated list of ip or ip:port \(invalid: dns.example.com, 1.2.3.4:99999\)/,
    );
  });
});

describe("DOMAIN_RECHECK_SWEEP_MS", () => {
  it("defaults to an hour, and takes from one second to a day", () => {
    expect(loadConfig({}).domainRecheckSweepMs).toBe(3_600_000);
    expect(loadConfig({ DOMAIN_RECHECK_SWEEP_MS: "1000" }).domainRecheckSweepMs).toBe(1000);
    for (const value of ["999", "86400001", "hourly"]) {
      expect(getProblems({ DOMAIN_RECHECK_SWEEP_MS: value })).toEqual([
        { variable: "DOMAIN_RECHECK_SWEEP_MS", message: "must be a whole number from 1000 to 86400000" },
      ]);
    }
  });
});

describe("ACCEPT_GROUP_WINDOW_MS and ACCEPT_GROUP_MAX", () => {
  it("default to a window of 1 ms and groups of up to 64 mails", () => {
    expect(loadConfig({}).inbound.acceptGroups).toEqual({ windowMs: 1, maxGroup: 64 });
  });

  it("take a window from 0 to 50 ms and groups from 1 (off) to 500 mails", () => {
    const config = loadConfig({ ACCEPT_GROUP_WINDOW_MS: "0", ACCEPT_GROUP_MAX: "1" });
    expect(config.inbound.acceptGroups).toEqual({ windowMs: 0, maxGroup: 1 });
    expect(loadConfig({ ACCEPT_GROUP_WINDOW_MS: "50", ACCEPT_GROUP_MAX: "500" }).inbound.acceptGroups).toEqual({
      windowMs: 50,
      maxGroup: 500,
    });
  });

  it("refuse values out of range or not whole numbers, by name", () => {
    for (const value of ["51", "-1", "1.5", "soon"]) {
      expect(getProblems({ ACCEPT_GROUP_WINDOW_MS: value })).toEqual([
        { variable: "ACCEPT_GROUP_WINDOW_MS", message: "must be a whole number from 0 to 50" },
      ]);
    }
    for (const value of ["0", "501", "many"]) {
      expect(getProblems({ ACCEPT_GROUP_MAX: value })).toEqual([
        { variable: "ACCEPT_GROUP_MAX", message: "must be a whole number from 1 to 500" },
      ]);
    }
  });
});

describe("MX_HOSTNAME", () => {
  it("defaults to BASE_URL's host name, or localhost without one", () => {
    expect(loadConfig({ BASE_URL: "https://Hookmail.Example.com:8443/app" }).mxHostname).toBe("hookmail.example.com");
    expect(loadConfig({}).mxHostname).toBe("localhost");
  });

  it("is stored lowercase without a trailing dot", () => {
    expect(loadConfig({ MX_HOSTNAME: " MX.Hookmail.Example. " }).mxHostname).toBe("mx.hookmail.example");
  });

  it.each(["mx hookmail.example", "192.0.2.1", "mx_1.example", "-mx.example", `${"a".repeat(64)}.example`])(
    "refuses %s by name",
    (value) => {
      expect(() => loadConfig({ MX_HOSTNAME: value })).toThrow(/MX_HOSTNAME: must be a host name such as mx.example.com/);
    },
  );
});
