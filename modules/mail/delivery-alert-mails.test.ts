import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { ALERT_RESPONSE_EXCERPT_LENGTH, renderDeliveryAlertMail, renderDeliveryRecoveryMail } from "./delivery-alert-mails";

const INBOX_URL = "https://hookmail.example/email-callbacks/ec_1/inbox";
const ADDRESS = "orders@hookmail.test";
const ENDPOINT_URL = "https://hooks.example.com/orders";
const CATALOGUES = { en: en.mail, fr: fr.mail } as const;

const alert = (overrides: Partial<Parameters<typeof renderDeliveryAlertMail>[0]> = {}) =>
  renderDeliveryAlertMail({
    locale: "en",
    name: "Ada",
    address: ADDRESS,
    inboxUrl: INBOX_URL,
    endpointUrl: ENDPOINT_URL,
    failure: { kind: "retries-exhausted", attempts: 7, durationMs: 31 * 3_600_000, last: { statusCode: 502 } },
    error: null,
    responseExcerpt: "Bad gateway",
    ...overrides,
  });

describe.each(["en", "fr"] as const)("the delivery alert mail in %s", (locale) => {
  const texts = CATALOGUES[locale].deliveryAlert;
  const mail = alert({ locale });

  it("names the address in the subject and the body, in its language", () => {
    expect(mail.subject).toBe(texts.subject.replace("{address}", ADDRESS));
    expect(mail.text).toContain(texts.greeting.replace("{name}", "Ada"));
    expect(mail.text).toContain(ADDRESS);
    expect(mail.text).toContain(texts.keptInInbox);
    expect(mail.html).toContain(`lang="${locale}"`);
  });

  it("names the endpoint whose delivery gave up by its URL", () => {
    expect(mail.text).toContain(`${texts.endpoint} ${ENDPOINT_URL}\n${texts.statusCode}`);
    expect(mail.html).toContain(`>${ENDPOINT_URL}<`);
  });

  it("names an endpoint URL without its credentials, query or fragment, which may hold a token", () => {
    const withToken = alert({ locale, endpointUrl: "https://user:pass@hooks.example.com/in?token=s3cret#x" });
    expect(withToken.text).toContain(`${texts.endpoint} https://hooks.example.com/in?…\n`);
    expect(withToken.text).not.toMatch(/s3cret|pass@/);
  });

  it("names the last status code with its reason phrase and the start of the answer, and no raw error code", () => {
    expect(mail.text).toContain(`${texts.statusCode} 502 Bad Gateway\n${texts.response} Bad gateway`);
    expect(mail.html).toContain(">502 Bad Gateway<");
    expect(mail.text).not.toContain("webhook-failed");
    expect(mail.text).not.toContain(texts.error);
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

const WORDS = {
  en: {
    clientError:
      "A mail received at orders@hookmail.test was not delivered: your webhook answered 400 Bad Request. Hookmail does not retry a 4xx answer other than 408 and 429, so no retry is left.",
    redirect:
      "A mail received at orders@hookmail.test was not delivered: your webhook answered 301 Moved Permanently, a redirect. Hookmail does not follow redirects, so no retry is left.",
    blocked:
      "A mail received at orders@hookmail.test was not delivered: its webhook URL leads to an address Hookmail may not call (such as a loopback or private network address), so no retry is left.",
    exhausted:
      "Hookmail gave up delivering a mail received at orders@hookmail.test: your webhook failed 7 times over 31 hours and no retry is left. The last time, it answered 503 Service Unavailable.",
    timedOut:
      "Hookmail gave up delivering a mail received at orders@hookmail.test: your webhook failed 3 times over 12 minutes and no retry is left. The last time, it did not answer in time.",
  },
  fr: {
    clientError:
      "Un e-mail reçu à orders@hookmail.test n'a pas été transmis : votre webhook a répondu 400 Bad Request. Hookmail ne réessaie pas après une réponse 4xx autre que 408 et 429 : il ne reste aucun nouvel essai.",
    redirect:
      "Un e-mail reçu à orders@hookmail.test n'a pas été transmis : votre webhook a répondu 301 Moved Permanently, une redirection. Hookmail ne suit pas les redirections : il ne reste aucun nouvel essai.",
    blocked:
      "Un e-mail reçu à orders@hookmail.test n'a pas été transmis : l'URL de son webhook mène à une adresse que Hookmail n'a pas le droit d'appeler (par exemple une adresse locale ou de réseau privé) : il ne reste aucun nouvel essai.",
    exhausted:
      "Hookmail a renoncé à transmettre un e-mail reçu à orders@hookmail.test : votre webhook a échoué 7 fois en 31 heures et il ne reste aucun nouvel essai. La dernière fois, il a répondu 503 Service Unavailable.",
    timedOut:
      "Hookmail a renoncé à transmettre un e-mail reçu à orders@hookmail.test : votre webhook a échoué 3 fois en 12 minutes et il ne reste aucun nouvel essai. La dernière fois, il n'a pas répondu à temps.",
  },
} as const;

describe.each(["en", "fr"] as const)("what the delivery alert says happened, in %s", (locale) => {
  const words = WORDS[locale];

  it("a 4xx answer: the webhook answered it, and Hookmail does not retry a 4xx other than 408 and 429", () => {
    const mail = alert({ locale, failure: { kind: "not-retried", statusCode: 400 }, responseExcerpt: null });
    expect(mail.text).toContain(words.clientError);
    expect(mail.text).toContain(`${CATALOGUES[locale].deliveryAlert.statusCode} 400 Bad Request`);
  });

  it("a redirect: the webhook answered it, and Hookmail does not follow redirects", () => {
    expect(alert({ locale, failure: { kind: "not-retried", statusCode: 301 } }).text).toContain(words.redirect);
  });

  it("a webhook URL Hookmail may not call: says so, with no status code", () => {
    const mail = alert({ locale, failure: { kind: "blocked-target" }, responseExcerpt: null });
    expect(mail.text).toContain(words.blocked);
    expect(mail.text).toContain(
      `${CATALOGUES[locale].deliveryAlert.statusCode} ${CATALOGUES[locale].deliveryAlert.noStatusCode}`,
    );
  });

  it("retries exhausted: how many attempts over how long, and how the last one ended", () => {
    const failure = {
      kind: "retries-exhausted",
      attempts: 7,
      durationMs: 31 * 3_600_000 + 12 * 60_000,
      last: { statusCode: 503 },
    } as const;
    expect(alert({ locale, failure }).text).toContain(words.exhausted);
    const timedOut = { kind: "retries-exhausted", attempts: 3, durationMs: 12 * 60_000, last: "timeout" } as const;
    expect(alert({ locale, failure: timedOut }).text).toContain(words.timedOut);
  });
});

describe("the delivery alert's details", () => {
  it("say no answer came when there is no status code, name the connection error, and leave out an empty answer", () => {
    const mail = alert({
      failure: { kind: "retries-exhausted", attempts: 7, durationMs: 31 * 3_600_000, last: "unreachable" },
      error: "connect ECONNREFUSED 192.0.2.1:443",
      responseExcerpt: null,
    });
    expect(mail.text).toContain(`${en.mail.deliveryAlert.lastUnreachable}`);
    expect(mail.text).toContain(`${en.mail.deliveryAlert.statusCode} ${en.mail.deliveryAlert.noStatusCode}`);
    expect(mail.text).toContain(`${en.mail.deliveryAlert.error} connect ECONNREFUSED 192.0.2.1:443`);
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
  const mail = renderDeliveryRecoveryMail({
    locale,
    name: "Ada",
    address: ADDRESS,
    inboxUrl: INBOX_URL,
    endpointUrl: ENDPOINT_URL,
  });

  it("says delivery to the address works again, and links to its inbox", () => {
    expect(mail.subject).toBe(texts.subject.replace("{address}", ADDRESS));
    expect(mail.text).toContain(texts.body.replace("{address}", ADDRESS));
    expect(mail.text).toContain(`${texts.endpoint} ${ENDPOINT_URL}\n`);
    expect(mail.text).toContain(`\n${INBOX_URL}\n`);
    expect(mail.html).toContain(`href="${INBOX_URL}"`);
    expect(mail.html).toContain(`lang="${locale}"`);
  });
});
