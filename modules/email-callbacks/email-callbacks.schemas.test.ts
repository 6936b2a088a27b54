import { describe, expect, it } from "vitest";
import { RESERVED_USERNAMES, USERNAME_PATTERN } from "./email-callbacks.constants";
import { allowedOriginSchema, createEmailCallbackSchema, usernameSchema } from "./email-callbacks.schemas";

describe("reserved usernames", () => {
  it("hold at least 100 lower-case names that would otherwise be valid usernames", () => {
    expect(RESERVED_USERNAMES.size).toBeGreaterThanOrEqual(100);
    for (const name of RESERVED_USERNAMES) {
      expect(name).toBe(name.toLowerCase());
      expect(USERNAME_PATTERN.test(name)).toBe(true);
    }
  });

  it("pass the schema, which does not know the domain (the usecase refuses them on the operator's domains)", () => {
    expect(usernameSchema.parse("MAILER-DAEMON")).toBe("mailer-daemon");
  });
});

describe("usernames that are patterns", () => {
  it("accept * alone and * with at least one literal character, each * anywhere", () => {
    for (const username of ["*", "orders-*", "*-eu", "a*b*c", "x*", "*_*"]) expect(usernameSchema.parse(username)).toBe(username);
  });

  it("refuse stars alone and characters no username has, naming why", () => {
    expect(usernameSchema.safeParse("**").error?.issues[0]?.message).toBe(
      "emailCallbacks.form.validation.usernamePatternInvalid",
    );
    expect(usernameSchema.safeParse("a%*").error?.issues[0]?.message).toBe("emailCallbacks.form.validation.usernameCharacters");
    expect(usernameSchema.safeParse("ab").error?.issues[0]?.message).toBe("emailCallbacks.form.validation.usernameTooShort");
  });
});

describe("createEmailCallbackSchema", () => {
  it("lower-cases the username and allowed origins, and accepts @domain origins", () => {
    const parsed = createEmailCallbackSchema.parse({
      domain: "Hookmail.Test",
      username: " Orders.EU ",
      webhookUrl: "https://hooks.example.com/x",
      allowedOrigins: ["Billing@Example.org", "@Partner.example.com"],
    });
    expect(parsed).toMatchObject({
      domain: "hookmail.test",
      username: "orders.eu",
      allowedOrigins: ["billing@example.org", "@partner.example.com"],
    });
  });

  it("refuses an origin that is neither an address nor @domain", () => {
    for (const origin of ["example.org", "@", "a@b@c.org", "@@example.org"])
      expect(allowedOriginSchema.safeParse(origin).success).toBe(false);
  });
});

describe("webhook secrets", () => {
  it("are printable ASCII without spaces, so every receiver keys the HMAC with the same bytes", () => {
    const isAccepted = (webhookSecret: string) =>
      createEmailCallbackSchema.safeParse({ domain: "d.test", username: "abc", webhookUrl: "https://x.test/h", webhookSecret })
        .success;
    expect(isAccepted("sécret-sécret-sécret")).toBe(false);
    expect(isAccepted("with spaces in the secret")).toBe(false);
    expect(isAccepted("Ab1!~-_.:;=+/?#[]@".padEnd(20, "x"))).toBe(true);
  });
});
