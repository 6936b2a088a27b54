import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { loadConfig } from "@/modules/config/config";
import type { Locale } from "@/modules/i18n/i18n.constants";
import { createMemoryLogger } from "@/tests/support/memory-logger";
import { renderPasswordResetMail, renderVerificationMail, sendPasswordResetMail, sendVerificationMail } from "./auth-mails";
import { createMailerFromConfig, type Mailer, type OutgoingMail } from "./mailer";

const URL_WITH_QUERY = "https://hookmail.test/api/auth/verify-email?token=abc.def&callbackURL=%2Femail-callbacks";
const CATALOGUES = { en: en.mail, fr: fr.mail } as const;

const KINDS = [
  { kind: "verification", render: renderVerificationMail, texts: (locale: Locale) => CATALOGUES[locale].verifyEmail },
  { kind: "password reset", render: renderPasswordResetMail, texts: (locale: Locale) => CATALOGUES[locale].resetPassword },
] as const;

function createRecordingMailer() {
  const sent: OutgoingMail[] = [];
  const mailer: Mailer = {
    send: async (mail) => {
      sent.push(mail);
    },
  };
  return { mailer, sent };
}

describe.each(KINDS)("the $kind mail", ({ render, texts }) => {
  describe.each(["en", "fr"] as const)("in %s", (locale) => {
    const mail = render({ locale, name: "Ada", url: URL_WITH_QUERY });
    const expected = texts(locale);

    it("has the subject of its language", () => {
      expect(mail.subject).toBe(expected.subject);
    });

    it("greets the user by name and says what to do, in the text and the HTML", () => {
      const greeting = expected.greeting.replace("{name}", "Ada");
      expect(mail.text).toContain(greeting);
      expect(mail.text).toContain(expected.body);
      expect(mail.text).toContain(expected.ignore);
      expect(mail.html).toContain(`lang="${locale}"`);
      expect(mail.html).toContain(greeting.replaceAll("'", "&#39;"));
      expect(mail.html).toContain(expected.action.replaceAll("'", "&#39;"));
      expect(mail.html).toContain(CATALOGUES[locale].linkFallback.replaceAll("'", "&#39;"));
    });

    it("carries the link as is in the text, and escaped in the button and the spelled-out link of the HTML", () => {
      expect(mail.text).toContain(`\n${URL_WITH_QUERY}\n`);
      const escapedUrl = URL_WITH_QUERY.replaceAll("&", "&amp;");
      expect(mail.html.split(`href="${escapedUrl}"`)).toHaveLength(3);
      expect(mail.html).toContain(`>${escapedUrl}</a>`);
      expect(mail.html).not.toContain(URL_WITH_QUERY);
    });
  });

  it("escapes HTML in the name, and leaves the plain text part as written", () => {
    const name = `<script>alert("x")</script> & O'Brien`;

    const mail = render({ locale: "en", name, url: URL_WITH_QUERY });

    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; O&#39;Brien");
    expect(mail.text).toContain(`Hello ${name},`);
  });

  it("escapes HTML in the URL so it cannot break out of the link", () => {
    const mail = render({ locale: "en", name: "Ada", url: `https://hookmail.test/?a="><img src=x onerror=alert(1)>` });

    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain('href="https://hookmail.test/?a=&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
  });
});

describe("sending the account mails", () => {
  it("sendVerificationMail sends the rendered verification mail to the given address", async () => {
    const { mailer, sent } = createRecordingMailer();

    await sendVerificationMail({ mailer, to: "ada@example.com", name: "Ada", url: URL_WITH_QUERY, locale: "fr" });

    expect(sent).toEqual([
      { to: "ada@example.com", ...renderVerificationMail({ locale: "fr", name: "Ada", url: URL_WITH_QUERY }) },
    ]);
  });

  it("sendPasswordResetMail sends the rendered reset mail to the given address", async () => {
    const { mailer, sent } = createRecordingMailer();

    await sendPasswordResetMail({ mailer, to: "ada@example.com", name: "Ada", url: URL_WITH_QUERY, locale: "en" });

    expect(sent).toEqual([
      { to: "ada@example.com", ...renderPasswordResetMail({ locale: "en", name: "Ada", url: URL_WITH_QUERY }) },
    ]);
    expect(sent[0]?.subject).toBe(en.mail.resetPassword.subject);
  });
});

describe("account mails in production without SMTP_URL", () => {
  it.each([
    ["verification", sendVerificationMail],
    ["password reset", sendPasswordResetMail],
  ])("never write the %s link to the log: only the owner-only outbox file holds it", async (_kind, send) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-auth-mails-"));
    try {
      const { logger, lines } = createMemoryLogger();
      const mailer = createMailerFromConfig(loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir }), logger);

      await send({ mailer, to: "ada@example.com", name: "Ada", url: URL_WITH_QUERY, locale: "en" });

      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join("\n")).not.toContain("token=abc.def");
      const outboxDir = path.join(dataDir, "outbox");
      const [file] = fs.readdirSync(outboxDir);
      expect(fs.readFileSync(path.join(outboxDir, file!), "utf8")).toContain("token=abc.def");
      expect(fs.statSync(path.join(outboxDir, file!)).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
