// @vitest-environment jsdom
// The Domains page against a stubbed network (the edge of the browser): it lists the user's domains
// with their status and the two records to set, shows the API's refusals by their code in the user's
// language, shows a check's new state, explains a refused delete, and says where an address goes.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { NextIntlClientProvider } from "next-intl";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { ToastsOnDemandProvider } from "@/modules/shared/components/toasts-on-demand";
import type { ApiDomain } from "../domains.models";
import { DomainList } from "./domain-list";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const MESSAGES = { en, fr };

/** Long enough for the first dynamic import of sonner or of the confirm dialog on a loaded machine. */
const LOAD_TIMEOUT_MS = 10_000;

const PENDING_DOMAIN: ApiDomain = {
  id: "dom_1",
  name: "example.org",
  status: "pending",
  records: [
    { type: "TXT", name: "_hookmail.example.org", value: "hookmail-verification=abc123" },
    { type: "MX", name: "example.org", value: "mx.hookmail.example", priority: 10 },
  ],
  verifiedAt: null,
  lastCheckedAt: null,
  lastCheckError: null,
  createdAt: "2030-01-01T12:00:00.000Z",
};

type StubAnswer = { status: number; body: unknown };
const error = (status: number, code: string): StubAnswer => ({ status, body: { error: { code, message: code } } });

/**
 * A server answering each "METHOD path" with the given answer, else with its list, which keeps the
 * domain a check answered (as the database would); records each request.
 */
function stubServer(answers: Record<string, StubAnswer> = {}, listed: ApiDomain[] = [PENDING_DOMAIN]) {
  let domains = listed;
  const requests: string[] = [];
  const fetch = vi.fn(async (path: string, init: RequestInit = {}) => {
    const request = `${init.method ?? "GET"} ${path}`;
    requests.push(init.body ? `${request} ${init.body}` : request);
    const answer = answers[request] ?? { status: 200, body: { domains } };
    const stored = (answer.body as { domain?: ApiDomain } | null)?.domain;
    if (stored) domains = domains.map((domain) => (domain.id === stored.id ? stored : domain));
    return answer.status === 204 ? new Response(null, { status: 204 }) : Response.json(answer.body, { status: answer.status });
  });
  vi.stubGlobal("fetch", fetch);
  return { requests };
}

function renderPage(locale: "en" | "fr" = "en") {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <NextIntlClientProvider locale={locale} messages={MESSAGES[locale]}>
        <ToastsOnDemandProvider>
          <DomainList />
        </ToastsOnDemandProvider>
      </NextIntlClientProvider>
    </QueryClientProvider>,
  );
}

describe("the Domains page", () => {
  it.each([
    ["en", en],
    ["fr", fr],
  ] as const)(
    "shows a pending domain with its badge and its two records, each value with a copy button (%s)",
    async (locale, messages) => {
      stubServer();
      renderPage(locale);
      const card = await screen.findByRole("region", { name: "example.org" });
      expect(within(card).getByText(messages.domains.status.pending)).toBeTruthy();
      expect(within(card).getByText(messages.domains.card.neverChecked)).toBeTruthy();
      expect(within(card).getByText("hookmail-verification=abc123")).toBeTruthy();
      expect(within(card).getByText("mx.hookmail.example")).toBeTruthy();
      expect(within(card).getByRole("cell", { name: "10" })).toBeTruthy();
      const copyTxt = messages.domains.card.copyValue.replace("{type}", "TXT");
      const copyMx = messages.domains.card.copyValue.replace("{type}", "MX");
      expect(within(card).getByRole("button", { name: copyTxt })).toBeTruthy();
      expect(within(card).getByRole("button", { name: copyMx })).toBeTruthy();
    },
  );

  it.each([
    ["en", en],
    ["fr", fr],
  ] as const)(
    "says what the last check found wrong, one problem a line, in the page's language (%s)",
    async (locale, messages) => {
      const checked: ApiDomain = {
        ...PENDING_DOMAIN,
        lastCheckedAt: "2030-01-01T12:05:00.000Z",
        lastCheckError: "TXT _hookmail.example.org not found; MX example.org points to mx.other.example, not mx.hookmail.example",
      };
      stubServer({}, [checked]);
      renderPage(locale);
      const card = await screen.findByRole("region", { name: "example.org" });
      const problems = within(card)
        .getAllByRole("listitem")
        .map((item) => item.textContent);
      const says = messages.domains.problems;
      expect(problems).toEqual([
        says.notFound.replace("{record}", "TXT").replace("{name}", "_hookmail.example.org"),
        says.wrongHost
          .replace("{record}", "MX")
          .replace("{name}", "example.org")
          .replace("{hosts}", "mx.other.example")
          .replace("{expected}", "mx.hookmail.example"),
      ]);
    },
  );

  it("invites to add a domain when there is none", async () => {
    stubServer({}, []);
    renderPage();
    expect(await screen.findByRole("heading", { name: en.domains.list.empty.title })).toBeTruthy();
  });

  it.each([
    ["en", "domain.invalid", 400, en.apiErrors.domain.invalid],
    ["fr", "domain.reserved", 400, fr.apiErrors.domain.reserved],
    ["en", "domain.already_exists", 409, en.apiErrors.domain.already_exists],
    ["fr", "domain.taken", 409, fr.apiErrors.domain.taken],
    ["fr", "domains.limit_reached", 403, fr.apiErrors.domains.limit_reached],
  ] as const)("shows the API's refusal of a name by its code (%s, %s)", async (locale, code, status, expected) => {
    const messages = MESSAGES[locale];
    const { requests } = stubServer({ "POST /api/domains": error(status, code) });
    renderPage(locale);
    await userEvent.setup().type(screen.getByLabelText(messages.domains.add.label), "Example.ORG");
    await userEvent.setup().click(screen.getByRole("button", { name: messages.domains.add.submit }));
    expect((await screen.findByRole("alert")).textContent).toBe(expected);
    expect(requests).toContain('POST /api/domains {"name":"Example.ORG"}');
  });

  it("shows a check's new status and each problem it found on a line of its own", async () => {
    const problems = [
      "TXT _hookmail.example.org not found",
      "MX example.org points to mx.other.example, not mx.hookmail.example",
    ];
    const checked: ApiDomain = {
      ...PENDING_DOMAIN,
      lastCheckedAt: new Date().toISOString(),
      lastCheckError: problems.join("; "),
    };
    const { requests } = stubServer({ "POST /api/domains/dom_1/verify": { status: 200, body: { domain: checked } } });
    renderPage();
    const card = await screen.findByRole("region", { name: "example.org" });
    await userEvent.setup().click(within(card).getByRole("button", { name: en.domains.card.verify }));
    expect(await within(card).findByText(problems[1]!)).toBeTruthy();
    expect(
      within(card)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(problems);
    expect(within(card).getByText(en.domains.card.lastCheck, { exact: false })).toBeTruthy();
    expect(requests).toContain("POST /api/domains/dom_1/verify");
  });

  it("explains, in French too, why a domain with addresses cannot be deleted", async () => {
    const { requests } = stubServer({ "DELETE /api/domains/dom_1": error(409, "domain.in_use") });
    renderPage("fr");
    const card = await screen.findByRole("region", { name: "example.org" });
    const user = userEvent.setup();
    await user.click(within(card).getByRole("button", { name: "Supprimer le domaine example.org" }));
    const dialog = await screen.findByRole("alertdialog", {}, { timeout: LOAD_TIMEOUT_MS });
    await user.click(within(dialog).getByRole("button", { name: fr.domains.delete.confirm }));
    expect(await screen.findByText(fr.apiErrors.domain.in_use, {}, { timeout: LOAD_TIMEOUT_MS })).toBeTruthy();
    expect(requests).toContain("DELETE /api/domains/dom_1");
  });

  it("says which email an address goes to, with a link to its inbox", async () => {
    const answer = {
      recipient: "orders-eu@example.org",
      match: "pattern",
      emailCallback: { id: "ec_1", username: "orders-*", domain: "example.org" },
      reason: null,
    };
    stubServer({ "GET /api/domains/route?to=orders-eu%40example.org": { status: 200, body: answer } });
    renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(en.domains.route.label), "orders-eu@example.org");
    await user.click(screen.getByRole("button", { name: en.domains.route.submit }));
    const link = await screen.findByRole("link", { name: "orders-*@example.org" });
    expect(link.getAttribute("href")).toBe("/email-callbacks/ec_1/inbox");
    expect(screen.getByText(en.domains.route.match.pattern)).toBeTruthy();
  });

  it.each([
    ["en", "unverified-domain", "unverifiedDomain"],
    ["fr", "unknown-domain", "unknownDomain"],
    ["fr", "no-address", "noAddress"],
  ] as const)("says in words why an address goes nowhere (%s, %s)", async (locale, reason, key) => {
    const messages = MESSAGES[locale];
    const answer = { recipient: "hello@example.org", match: null, emailCallback: null, reason };
    stubServer({ "GET /api/domains/route?to=hello%40example.org": { status: 200, body: answer } });
    renderPage(locale);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(messages.domains.route.label), "hello@example.org");
    await user.click(screen.getByRole("button", { name: messages.domains.route.submit }));
    const expected = messages.domains.route.reason[key].replace("{recipient}", "hello@example.org");
    expect(await screen.findByText(expected)).toBeTruthy();
  });
});
