// Accounts end to end through better-auth's HTTP handler, on a fresh database, with a real SMTP
// session to a loopback sink catching the mails.
import os from "node:os";
import path from "node:path";
import { signJWT } from "better-auth/crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "@/modules/config/config";
import type { Database } from "@/modules/db/db";
import { createMailer } from "@/modules/mail/mailer";
import { createAuthTestClient } from "@/tests/support/auth-client";
import { silentLogger } from "@/tests/support/memory-logger";
import { type SmtpSink, startSmtpSink } from "@/tests/support/smtp-sink";
import { createTestDatabase } from "@/tests/support/test-database";
import { createAuth } from "./auth.server";
import { isVerifiedThroughLink } from "./verified-link";

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
    logger: silentLogger,
  });
  return createAuth({ config, prisma: database.prisma, mailer });
}

let emailCounter = 0;
const uniqueEmail = () => {
  emailCounter += 1;
  return `person${emailCounter}-${Date.now()}@example.com`;
};

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

    const signUp = await client.call("/sign-up/email", {
      method: "POST",
      body: { email, password: PASSWORD, name: "Ada", callbackURL: "/" },
    });
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

  it("sends a verification link back to /verify-email with its token: with ?error= when tampered with, without once used", async () => {
    const auth = buildAuth({ AUTH_EMAIL_VERIFICATION_REQUIRED: "true" });
    const email = uniqueEmail();
    await createAuthTestClient(auth).call("/sign-up/email", {
      method: "POST",
      body: { email, password: PASSWORD, name: "Cy", callbackURL: "/email-callbacks" },
    });
    const mail = await sink.waitForMail((received) => received.envelopeTo.includes(email));
    const link = new URL(mail.links.find((candidate) => candidate.includes("/api/auth/verify-email")) ?? "");
    const back = `/verify-email?token=${link.searchParams.get("token")}`;
    expect(link.searchParams.get("callbackURL")).toBe(back);

    const tampered = new URL(link);
    tampered.searchParams.set("token", `${link.searchParams.get("token")}x`);
    const refused = await createAuthTestClient(auth).call(tampered.toString());
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe(`${back}&error=INVALID_TOKEN`);

    const first = createAuthTestClient(auth);
    expect((await first.call(link.toString())).headers.get("location")).toBe(back);
    expect(first.cookieHeader()).toMatch(/hookmail\.session_token=/);
    const again = createAuthTestClient(auth);
    const used = await again.call(link.toString());
    expect(used.headers.get("location")).toBe(back);
    expect(again.cookieHeader()).not.toMatch(/session_token/);
  });

  it("the verification page's check says verified only for a genuine token whose address is verified now", async () => {
    const auth = buildAuth({ AUTH_EMAIL_VERIFICATION_REQUIRED: "true" });
    const email = uniqueEmail();
    await createAuthTestClient(auth).call("/sign-up/email", {
      method: "POST",
      body: { email, password: PASSWORD, name: "Di", callbackURL: "/" },
    });
    const mail = await sink.waitForMail((received) => received.envelopeTo.includes(email));
    const link = new URL(mail.links.find((candidate) => candidate.includes("/api/auth/verify-email")) ?? "");
    const token = link.searchParams.get("token") ?? "";
    const OTHER_SECRET = "another-secret-another-secret-another";
    const otherSecret = buildAuth({ AUTH_EMAIL_VERIFICATION_REQUIRED: "true", AUTH_SECRET: OTHER_SECRET });
    const forged = await signJWT({ email }, OTHER_SECRET);

    for (const candidate of [undefined, "", "bogus", `${token}x`, forged]) {
      expect(await isVerifiedThroughLink({ auth, token: candidate })).toBe(false);
    }
    expect(await isVerifiedThroughLink({ auth, token })).toBe(false);
    expect(await isVerifiedThroughLink({ auth: otherSecret, token })).toBe(false);

    await createAuthTestClient(auth).call(link.toString());
    expect(await isVerifiedThroughLink({ auth, token })).toBe(true);
    expect(await isVerifiedThroughLink({ auth: otherSecret, token })).toBe(false);
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
    const short = await client.call("/sign-up/email", {
      method: "POST",
      body: { email: uniqueEmail(), password: "1234567", name: "Dee" },
    });
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
    const response = await client.call("/request-password-reset", {
      method: "POST",
      body: { email, redirectTo: "http://localhost:3000/reset-password" },
    });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages.filter((received) => received.envelopeTo.includes(email))).toEqual([]);
  });

  it("answers MAIL_SEND_FAILED when the mail server refuses, without crashing", async () => {
    const config = loadConfig({
      DATA_DIR: path.join(os.tmpdir(), "hookmail-auth-test"),
      AUTH_SECRET: "integration-test-secret-integration-test",
      AUTH_RATE_LIMIT_ENABLED: "false",
    });
    const failingMailer = { send: async () => Promise.reject(new Error("connection refused")) };
    const client = createAuthTestClient(createAuth({ config, prisma: database.prisma, mailer: failingMailer }));
    const email = uniqueEmail();
    await client.call("/sign-up/email", { method: "POST", body: { email, password: PASSWORD, name: "Gus" } });
    const response = await client.call("/request-password-reset", {
      method: "POST",
      body: { email, redirectTo: "http://localhost:3000/reset-password" },
    });
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
      const response = await attacker.call("/sign-in/email", {
        method: "POST",
        body: { email: "nobody@example.com", password: "wrong-password" },
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);

    const bystander = createAuthTestClient(auth, { ip: "198.51.100.99" });
    const other = await bystander.call("/sign-in/email", {
      method: "POST",
      body: { email: "nobody@example.com", password: "wrong-password" },
    });
    expect(other.status).toBe(401);
  });
});

describe("limits per account (docs/security.md), whatever AUTH_RATE_LIMIT_ENABLED says", () => {
  const signIn = (client: ReturnType<typeof createAuthTestClient>, email: string, password: string) =>
    client.call("/sign-in/email", { method: "POST", body: { email, password } });
  const retryAfter = (response: Response) => Number(response.headers.get("retry-after"));

  it("after 10 failed sign-ins to one account, its sign-in answers 429 with Retry-After from any client address, even with the right password, until the window passes; successes do not count and other accounts are unaffected", async () => {
    const auth = buildAuth();
    const email = uniqueEmail();
    const other = uniqueEmail();
    const owner = createAuthTestClient(auth, { ip: "192.0.2.1" });
    await owner.call("/sign-up/email", { method: "POST", body: { email, password: PASSWORD, name: "Hal" } });
    await owner.call("/sign-up/email", { method: "POST", body: { email: other, password: PASSWORD, name: "Ida" } });

    for (let attempt = 0; attempt < 5; attempt += 1) expect((await signIn(owner, email, PASSWORD)).status).toBe(200);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const guesser = createAuthTestClient(auth, { ip: `198.51.100.${attempt + 1}` });
      expect((await signIn(guesser, attempt % 2 ? email.toUpperCase() : email, `wrong-password-${attempt}`)).status).toBe(401);
    }

    const refused = await signIn(createAuthTestClient(auth, { ip: "203.0.113.200" }), email, PASSWORD);
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe("TOO_MANY_REQUESTS");
    expect(retryAfter(refused)).toBeGreaterThanOrEqual(1);
    expect(retryAfter(refused)).toBeLessThanOrEqual(15 * 60);
    expect(refused.headers.get("set-cookie") ?? "").not.toMatch(/session_token=[^;]/);
    expect((await signIn(owner, ` ${email.toUpperCase()} `, PASSWORD)).status).toBe(429);
    expect((await signIn(owner, other, PASSWORD)).status).toBe(200);

    await database.prisma.actionRateLimit.updateMany({
      where: { key: `failed-sign-in:${email}` },
      data: { windowStart: new Date(Date.now() - 16 * 60_000) },
    });
    expect((await signIn(owner, email, PASSWORD)).status).toBe(200);
  });

  it("let at most 10 of 30 parallel wrong guesses at one account be checked; the rest answer 429", async () => {
    const auth = buildAuth();
    const email = uniqueEmail();
    await createAuthTestClient(auth).call("/sign-up/email", { method: "POST", body: { email, password: PASSWORD, name: "Max" } });
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) =>
        signIn(createAuthTestClient(auth, { ip: `198.51.100.${attempt + 1}` }), email, `guess-${attempt}`),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it("send at most 5 reset mails an hour per requested email: the 6th request answers 429 with Retry-After and sends nothing, and an unknown address gets the same answers", async () => {
    const auth = buildAuth();
    const client = createAuthTestClient(auth);
    const known = uniqueEmail();
    const unknown = uniqueEmail();
    await client.call("/sign-up/email", { method: "POST", body: { email: known, password: PASSWORD, name: "Jo" } });
    client.clearCookies();
    const requestReset = (email: string) =>
      client.call("/request-password-reset", {
        method: "POST",
        body: { email, redirectTo: "http://localhost:3000/reset-password" },
      });

    const statuses = async (email: string) => {
      const answers: number[] = [];
      for (let attempt = 0; attempt < 6; attempt += 1)
        answers.push((await requestReset(attempt === 5 ? email.toUpperCase() : email)).status);
      return answers;
    };
    expect(await statuses(known)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await statuses(unknown)).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await requestReset(known);
    expect(retryAfter(refused)).toBeGreaterThan(59 * 60);

    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sink.messages.filter((received) => received.envelopeTo.includes(known))).toHaveLength(5);
    expect(sink.messages.filter((received) => received.envelopeTo.includes(unknown))).toEqual([]);
  });

  it("send at most 5 verification mails an hour per email, from sign-up, sign-in and the send-again call together: then no mail (sign-in still answers EMAIL_NOT_VERIFIED) and the send-again call 429 with Retry-After, the same for an unknown address", async () => {
    const auth = buildAuth({ AUTH_EMAIL_VERIFICATION_REQUIRED: "true" });
    const client = createAuthTestClient(auth);
    const email = uniqueEmail();
    const unknown = uniqueEmail();
    const sendAgain = (address: string) => client.call("/send-verification-email", { method: "POST", body: { email: address } });

    expect(
      (await client.call("/sign-up/email", { method: "POST", body: { email, password: PASSWORD, name: "Kim" } })).status,
    ).toBe(200);
    expect((await signIn(client, email, PASSWORD)).status).toBe(403);
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await sendAgain(email)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages.filter((received) => received.envelopeTo.includes(email))).toHaveLength(5);

    const signInOverTheLimit = await signIn(client, email, PASSWORD);
    expect(signInOverTheLimit.status).toBe(403);
    expect((await signInOverTheLimit.json()).code).toBe("EMAIL_NOT_VERIFIED");
    const refusedSendAgain = await sendAgain(email.toUpperCase());
    expect(refusedSendAgain.status).toBe(429);
    expect(retryAfter(refusedSendAgain)).toBeGreaterThan(59 * 60);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages.filter((received) => received.envelopeTo.includes(email))).toHaveLength(5);

    const unknownStatuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) unknownStatuses.push((await sendAgain(unknown)).status);
    expect(unknownStatuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe("names", () => {
  it("sign-up refuses a name over 64 characters with 400 NAME_TOO_LONG and a blank one with NAME_REQUIRED, and creates no user; it stores a name of 64, trimmed", async () => {
    const client = createAuthTestClient(buildAuth());
    const refusedEmail = uniqueEmail();
    const refused = await client.call("/sign-up/email", {
      method: "POST",
      body: { email: refusedEmail, password: PASSWORD, name: "n".repeat(65) },
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).code).toBe("NAME_TOO_LONG");
    expect(await database.prisma.user.count({ where: { email: refusedEmail } })).toBe(0);
    const blank = await client.call("/sign-up/email", {
      method: "POST",
      body: { email: refusedEmail, password: PASSWORD, name: "   " },
    });
    expect(blank.status).toBe(400);
    expect((await blank.json()).code).toBe("NAME_REQUIRED");

    const email = uniqueEmail();
    const accepted = await client.call("/sign-up/email", {
      method: "POST",
      body: { email, password: PASSWORD, name: `  ${"n".repeat(64)}  ` },
    });
    expect(accepted.status).toBe(200);
    expect((await database.prisma.user.findUniqueOrThrow({ where: { email } })).name).toBe("n".repeat(64));
  });

  it("update-user holds the name to sign-up's rule (trimmed, 1 to 64 characters, same codes) and stores it trimmed", async () => {
    const client = createAuthTestClient(buildAuth());
    const email = uniqueEmail();
    await client.call("/sign-up/email", { method: "POST", body: { email, password: PASSWORD, name: "Lea" } });
    const update = (name: unknown) => client.call("/update-user", { method: "POST", body: { name } });

    for (const [name, code] of [
      ["   ", "NAME_REQUIRED"],
      ["", "NAME_REQUIRED"],
      ["x".repeat(65), "NAME_TOO_LONG"],
      ["x".repeat(5000), "NAME_TOO_LONG"],
    ] as const) {
      const response = await update(name);
      expect(response.status).toBe(400);
      expect((await response.json()).code).toBe(code);
    }
    expect((await database.prisma.user.findUniqueOrThrow({ where: { email } })).name).toBe("Lea");

    expect((await update(`  ${"y".repeat(64)}  `)).status).toBe(200);
    expect((await database.prisma.user.findUniqueOrThrow({ where: { email } })).name).toBe("y".repeat(64));
    expect((await update(" Y ")).status).toBe(200);
    expect((await database.prisma.user.findUniqueOrThrow({ where: { email } })).name).toBe("Y");
  });
});
