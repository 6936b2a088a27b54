// @vitest-environment jsdom
// The checks of a mail on its message page, read from the webhook body sent (docs/webhooks.md:
// Authentication): the DMARC row says why DMARC failed when the body gives a reason.
import { cleanup, render, screen } from "@testing-library/react";
import { NextIntlClientProvider } from "next-intl";
import { afterEach, describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import { MailChecks } from "./message-parts";

afterEach(cleanup);

const verdicts = (dmarc: Record<string, unknown>) => ({
  authentication: {
    spf: { result: "pass" as const, domain: "attacker.example" },
    dkim: [],
    dmarc: { result: "fail", policy: null, domain: null, reason: null, ...dmarc } as never,
    arc: { result: "none" as const },
  },
});

function renderChecks(mail: Parameters<typeof MailChecks>[0]["mail"]) {
  render(
    <NextIntlClientProvider locale="en" messages={en}>
      <MailChecks mail={mail} />
    </NextIntlClientProvider>,
  );
  return screen.getByText(en.processing.message.dmarc).nextElementSibling?.textContent;
}

describe("MailChecks", () => {
  it("shows why DMARC failed: the reason beside the result", () => {
    expect(renderChecks(verdicts({ reason: "multiple-from" }))).toBe("fail, multiple-from");
  });

  it("shows the result and the domain's policy when there is no reason, also for a body sent before reasons existed", () => {
    expect(renderChecks(verdicts({ result: "pass", policy: "reject", domain: "sender.example" }))).toBe("pass, policy: reject");
    const { reason: _, ...older } = verdicts({ result: "none" }).authentication.dmarc as Record<string, unknown>;
    cleanup();
    expect(renderChecks({ authentication: { ...verdicts({}).authentication, dmarc: older as never } })).toBe("none");
  });
});
