// @vitest-environment jsdom
// The Checks tab speaks the page's language: the RFC words of the webhook body (pass, none,
// p=reject, rspamd's "no action") are translated where they are shown.
import { cleanup, render, screen } from "@testing-library/react";
import { NextIntlClientProvider } from "next-intl";
import { afterEach, describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { MailChecks, type SentMail } from "./message-parts";

afterEach(cleanup);

const MAIL: SentMail = {
  authentication: {
    spf: { result: "pass", domain: "example.org" },
    dkim: [],
    dmarc: { result: "none", policy: "none", domain: "example.org", reason: null },
    arc: { result: "none" },
  },
  spam: { score: 1.5, action: "no action", isSpam: false },
  flags: { isAutoReply: false, isBounce: false, isMailingList: false },
};

function renderChecks(locale: "en" | "fr", mail: SentMail = MAIL) {
  render(
    <NextIntlClientProvider locale={locale} messages={locale === "en" ? en : fr}>
      <MailChecks mail={mail} />
    </NextIntlClientProvider>,
  );
  return [...document.querySelectorAll("dd")].map((value) => value.textContent);
}

describe("the Checks tab", () => {
  it("shows the verdicts in French in French, with no English word among them", () => {
    const values = renderChecks("fr");
    expect(values).toEqual([
      "réussi (example.org)",
      "aucun",
      "aucun, politique : aucune",
      "aucun",
      "1,5 (aucune action)",
      "aucun",
    ]);
    expect(values.join(" ")).not.toMatch(/\b(none|pass|no action)\b/);
    expect(screen.getByText("Score de spam")).toBeTruthy();
  });

  it("shows the RFC words in English", () => {
    expect(renderChecks("en")).toEqual(["pass (example.org)", "none", "none, policy: none", "none", "1.5 (no action)", "none"]);
  });

  it("shows a word it does not know as sent", () => {
    const values = renderChecks("fr", { ...MAIL, spam: { score: 9, action: "custom action", isSpam: true } });
    expect(values).toContain("9 (custom action)");
  });
});
