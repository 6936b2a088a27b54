import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { renderDomainRestoredMail, renderDomainSuspendedMail } from "./domain-mails";

const DOMAINS_URL = "https://hookmail.example/domains";
const CATALOGUES = { en: en.mail, fr: fr.mail } as const;
const PROBLEMS = { en: en.domains.problems, fr: fr.domains.problems } as const;
const RECORDS = {
  txt: { name: "_hookmail.example.org", value: "hookmail-verification=abc" },
  mx: { name: "example.org", value: "mx.hookmail.example" },
};

describe.each(["en", "fr"] as const)("the domain re-check mails in %s", (locale) => {
  const texts = CATALOGUES[locale];

  it("says the domain stopped receiving mail, what is wrong (each problem on one line) and the two records to set", () => {
    const says = PROBLEMS[locale];
    const problems = [
      says.notFound.replace("{record}", "TXT").replace("{name}", "_hookmail.example.org"),
      says.wrongHost
        .replace("{record}", "MX")
        .replace("{name}", "example.org")
        .replace("{hosts}", "mx.other.example")
        .replace("{expected}", "mx.hookmail.example"),
    ];
    const mail = renderDomainSuspendedMail({
      locale,
      name: "Ada",
      domain: "example.org",
      domainsUrl: DOMAINS_URL,
      problems,
      records: RECORDS,
    });
    const t = texts.domainSuspended;
    expect(mail.subject).toBe(t.subject.replace("{domain}", "example.org"));
    expect(mail.text).toContain(t.greeting.replace("{name}", "Ada"));
    expect(mail.text).toContain(t.body.replace("{domain}", "example.org"));
    expect(mail.text).toContain(`${t.problem} ${problems.join("; ")}`);
    expect(mail.text).toContain(`${t.txtRecord} _hookmail.example.org hookmail-verification=abc`);
    expect(mail.text).toContain(`${t.mxRecord} example.org mx.hookmail.example`);
    expect(mail.text).toContain(DOMAINS_URL);
    expect(mail.html).toContain(`lang="${locale}"`);
  });

  it("says the domain is verified again", () => {
    const mail = renderDomainRestoredMail({ locale, name: "Ada", domain: "example.org", domainsUrl: DOMAINS_URL });
    const t = texts.domainRestored;
    expect(mail.subject).toBe(t.subject.replace("{domain}", "example.org"));
    expect(mail.text).toContain(t.body.replace("{domain}", "example.org"));
    expect(mail.html).toContain(DOMAINS_URL);
  });
});

it("escapes what the DNS answered in the HTML part", () => {
  const mail = renderDomainSuspendedMail({
    locale: "en",
    name: "Ada",
    domain: "example.org",
    domainsUrl: DOMAINS_URL,
    problems: ["MX example.org points to <script>x</script>, not mx.hookmail.example"],
    records: RECORDS,
  });
  expect(mail.html).not.toContain("<script>");
  expect(mail.html).toContain("&lt;script&gt;");
});
