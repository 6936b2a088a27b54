// Accounts end to end through better-auth's HTTP handler, on a fresh database, with a real SMTP
// session to a loopback sink catching the mails.
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "@/modules/config/config";
import type { Database } from "@/modules/db/db";
import { createMailer } from "@/modules/mail/mailer";
import { createAuthTestClient } from "@/tests/support/auth-client";
import { startSmtpSink, type SmtpSink } from "@/tests/support/smtp-sink";
import { createTestDatabase } from "@/tests/support/test-database";
import { createAuth } from "./auth.server";

let database: Database;
let sink: SmtpSink;

const PASSWORD = "correct-horse-battery";

function buildAuth(environment: Record<string, string> = {}) {
  const config = loadConfig({
    DATA_DIR: path.join(os.tmpdir(), "hookmail-auth-test"),
    AUTH_SECRET: "integration-test-secret-integration-test",
    EMAIL_DOMAINS: "hookmail.test",
    AUTH_RATE_LIMIT_ENABLED: "false",
    ...environment,
  });
  const mailer = createMailer({
    smtpUrl: sink.url,
    from: config.mail.from,
    outboxDir: path.join(config.dataDir, "outbox"),
    log: () => undefined,
  });
  return createAuth({ config, prisma: database.prisma, mailer });
}

let emailCounter = 0;
const uniqueEmail = () => `person${(emailCounter += 1)}-${Date.now()}@example.com`;

beforeAll(async () => {
  database = await createTestDatabase();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
  await database?.close();
});
beforeEach(() => sink.clear());

describe("sign-up with email verification required", () => {
  it("mails a verification link that verifies the address and signs the user in", async () => {
    const auth = buildAuth({ AUTH_EMAIL_VERIFICATION_REQUIRED: "true" });
    const client = createAuthTestClient(auth);
    const email = uniqueEmail();

    const signUp = await client.call("/sign-up/email", { method: "POST", body: { email, password: PASSWORD, name: "Ada", callbackURL: "/" } });
    expect(signUp.status).toBe(200);
    expect(client.cookieHeader()).not.toMatch(/session_token/);

    const mail = await sink.waitForMail((received) => received.envelopeTo.includes(email));
    expect(mail.subject).toBe("Verify your email address for Hookmail");
    const link = mail.links.find((candidate) => candidate.includes("/api/auth/verify-email"));
    expect(link).toBeDefined();

    const verify = await client.call(link ?? "");
    expect(verify.status).toBe(302);
    expect(client.cookieHeader()).toMatch(/hookmail\.session_token=/);
    const user = await database.prisma.user.findUniqueOrThrow({ where: { email } });
    expect(user.emailVerified).toBe(true);
    expect(user.id).toMatch(/^usr_/);
    expect(user.planId).toBe("free");

    const session = await client.call("/get-session");
    expect((await session.json()).user).toMatchObject({ email, planId: "free", emailVerified: true });
  });

  it("refuses to sign in an unverified user with EMAIL_NOT_VERIFIED, and mails a new link", async () => {
    const auth = buildAuth({ AUTH_EMAIL_VERIFICATION_REQUIRED: "true" });
    const client = createAuthTestClient(auth);
    const email = uniqueEmail();
    await client.call("/sign-up/email", { method: "POST", body: { email, password: PASSWORD, name: "Bob" } });
    await sink.waitForMail((received) => received.envelopeTo.includes(email));
    sink.clear();

    const signIn = await client.call("/sign-in/email", { method: "POST", body: { email, password: PASSWORD } });
    expect(signIn.status).toBe(403);
    expect((await signIn.json()).code).toBe("EMAIL_NOT_VERIFIED");
    await sink.waitForMail((received) => received.envelopeTo.includes(email));
  });

  it("writes the mail in the language of the request", async () => {
    const auth = buildAuth({ AUTH_EMAIL_VERIFICATION_REQUIRED: "true" });
    const email = uniqueEmail();
    const response = await auth.handler(
      new Request("http://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "http://localhost:3000", Cookie: "hookmail-locale=fr" },
        body: JSON.stringify({ email, password: PASSWORD, name: "Zoé" }),
      }),
    );
    expect(response.status).toBe(200);
    const mail = await sink.waitForMail((received) => received.envelopeTo.includes(email));
    expect(mail.subject).toBe("Confirmez votre adresse e-mail pour Hookmail");
  });
});

describe("sign-up without email verification", () => {
  it("signs the user in at once and sends no mail", async () => {
    const client = createAuthTestClient(buildAuth());
    const email = uniqueEmail();
    const response = await client.call("/sign-up/email", { method: "POST", body: { email, password: PASSWORD, name: "Cy" } });
    expect(response.status).toBe(200);
    expect(client.cookieHeader()).toMatch(/hookmail\.session_token=/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages.filter((received) => received.envelopeTo.includes(email))).toEqual([]);
  });

  it("refuses passwords under 8 or over 128 characters", async () => {
    const client = createAuthTestClient(buildAuth());
    const short = await client.call("/sign-up/email", { method: "POST", body: { email: uniqueEmail(), password: "1234567", name: "Dee" } });
    expect((await short.json()).code).toBe("PASSWORD_TOO_SHORT");
    const long = await client.call("/sign-up/email", {
      method: "POST",
      body: { email: uniqueEmail(), password: "x".repeat(129), name: "Dee" },
    });
    expect((await long.json()).code).toBe("PASSWORD_TOO_LONG");
  });
});

describe("registration disabled", () => {
  it("refuses sign-up with EMAIL_PASSWORD_SIGN_UP_DISABLED and creates no user", async () => {
    const client = createAuthTestClient(buildAuth({ AUTH_REGISTRATION_ENABLED: "false" }));
    const email = uniqueEmail();
    const response = await client.call("/sign-up/email", { method: "POST", body: { email, password: PASSWORD, name: "Eve" } });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe("EMAIL_PASSWORD_SIGN_UP_DISABLED");
    expect(await database.prisma.user.count({ where: { email } })).toBe(0);
  });
});

describe("password reset", () => {
  it("mails a link whose token sets a new password; the old one stops working", async () => {
    const auth = buildAuth();
    const client = createAuthTestClient(auth);
    const email = uniqueEmail();
    await client.call("/sign-up/email", { method: "POST", body: { email, password: PASSWORD, name: "Fay" } });
    client.clearCookies();

    const request = await client.call("/request-password-reset", {
      method: "POST",
      body: { email, redirectTo: "http://localhost:3000/reset-password" },
    });
    expect(request.status).toBe(200);
    const mail = await sink.waitForMail((received) => received.envelopeTo.includes(email));
    expect(mail.subject).toBe("Reset your Hookmail password");
    const link = mail.links.find((candidate) => candidate.includes("/api/auth/reset-password/")) ?? "";

    const callback = await client.call(link);
    expect(callback.status).toBe(302);
    const location = new URL(callback.headers.get("location") ?? "");
    expect(location.pathname).toBe("/reset-password");
    const token = location.searchParams.get("token");
    expect(token).toBeTruthy();

    const reset = await client.call("/reset-password", { method: "POST", body: { newPassword: "a-brand-new-secret", token } });
    expect(reset.status).toBe(200);

    const oldPassword = await client.call("/sign-in/email", { method: "POST", body: { email, password: PASSWORD } });
    expect(oldPassword.status).toBe(401);
    const newPassword = await client.call("/sign-in/email", { method: "POST", body: { email, password: "a-brand-new-secret" } });
    expect(newPassword.status).toBe(200);

    const reused = await client.call("/reset-password", { method: "POST", body: { newPassword: "yet-another-secret", token } });
    expect(reused.status).toBe(400);
  });

  it("answers the same for an unknown address and sends nothing", async () => {
    const client = createAuthTestClient(buildAuth());
    const email = uniqueEmail();
    const response = await client.call("/request-password-reset", { method: "POST", body: { email, redirectTo: "http://localhost:3000/reset-password" } });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages.filter((received) => received.envelopeTo.includes(email))).toEqual([]);
  });

  it("answers MAIL_SEND_FAILED when the mail server refuses, without crashing", async () => {
    const config = loadConfig({ DATA_DIR: path.join(os.tmpdir(), "hookmail-auth-test"), AUTH_SECRET: "integration-test-secret-integration-test", AUTH_RATE_LIMIT_ENABLED: "false" });
    const failingMailer = { send: async () => Promise.reject(new Error("connection refused")) };
    const client = createAuthTestClient(createAuth({ config, prisma: database.prisma, mailer: failingMailer }));
    const email = uniqueEmail();
    await client.call("/sign-up/email", { method: "POST", body: { email, password: PASSWORD, name: "Gus" } });
    const response = await client.call("/request-password-reset", { method: "POST", body: { email, redirectTo: "http://localhost:3000/reset-password" } });
    expect(response.status).toBe(503);
    expect((await response.json()).code).toBe("MAIL_SEND_FAILED");
  });
});

describe("rate limiting", () => {
  it("answers 429 to repeated failed sign-ins from one address, and not to another address", async () => {
    const auth = buildAuth({ AUTH_RATE_LIMIT_ENABLED: "true" });
    const attacker = createAuthTestClient(auth, { ip: "198.51.100.23" });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await attacker.call("/sign-in/email", { method: "POST", body: { email: "nobody@example.com", password: "wrong-password" } });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);

    const bystander = createAuthTestClient(auth, { ip: "198.51.100.99" });
    const other = await bystander.call("/sign-in/email", { method: "POST", body: { email: "nobody@example.com", password: "wrong-password" } });
    expect(other.status).toBe(401);
  });
});
