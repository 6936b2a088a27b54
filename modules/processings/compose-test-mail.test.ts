import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { composeTestMail } from "./compose-test-mail";

describe("composeTestMail", () => {
  it("builds a text and HTML message from Hookmail <test@domain> to the address, with its envelope", async () => {
    const now = new Date("2026-11-21T10:00:00Z");
    const { raw, envelope } = await composeTestMail({ address: "orders@hookmail.test", domain: "hookmail.test", now });
    expect(envelope).toEqual({ from: "test@hookmail.test", to: ["orders@hookmail.test"] });
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ address: "test@hookmail.test", name: "Hookmail" }]);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value : []).toEqual([
      { address: "orders@hookmail.test", name: "" },
    ]);
    expect(parsed.subject).toBe("Hookmail test mail");
    expect(parsed.date?.toISOString()).toBe(now.toISOString());
    expect(parsed.messageId).toMatch(/^<.+@hookmail\.test>$/);
    expect(parsed.text).toContain("This is a test mail sent by Hookmail to orders@hookmail.test.");
    expect(parsed.html).toContain("<strong>Hookmail</strong>");
  });

  it("gives every test mail its own Message-ID, so the pipeline never drops one as a duplicate", async () => {
    const first = await composeTestMail({ address: "a@hookmail.test", domain: "hookmail.test" });
    const second = await composeTestMail({ address: "a@hookmail.test", domain: "hookmail.test" });
    const [firstId, secondId] = await Promise.all([simpleParser(first.raw), simpleParser(second.raw)]).then((mails) =>
      mails.map((mail) => mail.messageId),
    );
    expect(firstId).not.toBe(secondId);
  });
});
