import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { ALERT_RESPONSE_EXCERPT_LENGTH, renderDeliveryAlertMail, renderDeliveryRecoveryMail } from "./delivery-alert-mails";

const INBOX_URL = "https://hookmail.example/email-callbacks/ec_1/inbox";
const ADDRESS = "orders@hookmail.test";
const CATALOGUES = { en: en.mail, fr: fr.mail } as const;

const alert = (overrides: Partial<Parameters<typeof renderDeliveryAlertMail>[0]> = {}) =>
  renderDeliveryAlertMail({
    locale: "en",
    name: "Ada",
    address: ADDRESS,
    inboxUrl: INBOX_URL,
    statusCode: 502,
    error: "webhook-failed",
    responseExcerpt: "Bad gateway",
    ...overrides,
  });

describe.each(["en", "fr"] as const)("the delivery alert mail in %s", (locale) => {
  const texts = CATALOGUES[locale].deliveryAlert;
  const mail = alert({ locale });

  it("names the address in the subject and the body, in its language", () => {
    expect(mail.subject).toBe(texts.subject.replace("{address}", ADDRESS));
    expect(mail.text).toContain(texts.greeting.replace("{name}", "Ada"));
    expect(mail.text).toContain(texts.body.replace("{address}", ADDRESS));
    expect(mail.html).toContain(`lang="${locale}"`);
  });

  it("names the last status code, the error and the start of the answer", () => {
    expect(mail.text).toContain(`${texts.statusCode} 502\n${texts.error} webhook-failed\n${texts.response} Bad gateway`);
    expect(mail.html).toContain(">502<");
    expect(mail.html).toContain(">webhook-failed<");
  });

  it("links to the address's inbox, as text and as a button", () => {
    expect(mail.text).toContain(`\n${INBOX_URL}\n`);
    expect(mail.html.split(`href="${INBOX_URL}"`)).toHaveLength(3);
    expect(mail.html).toContain(texts.action.replaceAll("'", "&#39;"));
  });

  it("says how often it comes and where to turn it off", () => {
    expect(mail.text).toContain(texts.footer);
  });
});

describe("the delivery alert's details", () => {
  it("say no answer came when there is no status code, and leave out an empty answer", () => {
    const mail = alert({ statusCode: null, error: "network-error: connect ECONNREFUSED", responseExcerpt: null });
    expect(mail.text).toContain(`${en.mail.deliveryAlert.statusCode} ${en.mail.deliveryAlert.noStatusCode}`);
    expect(mail.text).toContain(`${en.mail.deliveryAlert.error} network-error: connect ECONNREFUSED`);
    expect(mail.text).not.toContain(en.mail.deliveryAlert.response);
  });

  it("quote at most the first characters of the answer, on one line", () => {
    const mail = alert({ responseExcerpt: `line one\r\n\tline two ${"x".repeat(500)}` });
    const quoted = mail.text.split("\n").find((line) => line.startsWith(en.mail.deliveryAlert.response)) ?? "";
    expect(quoted.slice(en.mail.deliveryAlert.response.length + 1)).toBe(
      `line one line two ${"x".repeat(500)}`.slice(0, ALERT_RESPONSE_EXCERPT_LENGTH),
    );
  });

  it("escape whatever the webhook answered in the HTML, and keep it as written in the text", () => {
    const answer = `<script>alert("x")</script> & co`;
    const mail = alert({ responseExcerpt: answer });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co");
    expect(mail.text).toContain(answer);
  });
});

describe.each(["en", "fr"] as const)("the recovery mail in %s", (locale) => {
  const texts = CATALOGUES[locale].deliveryRecovery;
  const mail = renderDeliveryRecoveryMail({ locale, name: "Ada", address: ADDRESS, inboxUrl: INBOX_URL });

  it("says delivery to the address works again, and links to its inbox", () => {
    expect(mail.subject).toBe(texts.subject.replace("{address}", ADDRESS));
    expect(mail.text).toContain(texts.body.replace("{address}", ADDRESS));
    expect(mail.text).toContain(`\n${INBOX_URL}\n`);
    expect(mail.html).toContain(`href="${INBOX_URL}"`);
    expect(mail.html).toContain(`lang="${locale}"`);
  });
});
