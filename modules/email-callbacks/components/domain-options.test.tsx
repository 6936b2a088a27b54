// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { NextIntlClientProvider } from "next-intl";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TooltipProvider } from "@/components/ui/tooltip";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { ToastsOnDemandProvider } from "@/modules/shared/components/toasts-on-demand";
import { EmailCallbackForm, type EmailCallbackFormSubmission, getEmptyEmailCallbackFormValues } from "./email-callback-form";

afterEach(cleanup);

const LOCALES = [
  {
    locale: "en",
    messages: en,
    labels: { domain: "Domain", username: "Username", webhookUrl: "Webhook URL", submit: "Create email" },
    groups: { own: "Your domains", operator: "Service domains" },
    help: /orders-\* takes orders-42@bücher\.example\. \* alone takes every address of bücher\.example/,
    refused: "Patterns and catch-alls exist only on your own domains",
  },
  {
    locale: "fr",
    messages: fr,
    labels: { domain: "Domaine", username: "Nom d'utilisateur", webhookUrl: "URL du webhook", submit: "Créer l'adresse" },
    groups: { own: "Vos domaines", operator: "Domaines du service" },
    help: /orders-\* reçoit orders-42@bücher\.example\. \* seul reçoit toutes les adresses de bücher\.example/,
    refused: "Les motifs et les adresses fourre-tout n'existent que sur vos propres domaines",
  },
] as const;

describe.each(LOCALES)("the address form's domains in $locale (docs/domains.md: Addresses on a domain)", (locale) => {
  function renderForm(domainChoices = { operatorDomains: ["hookmail.test"], ownDomains: ["xn--bcher-kva.example"] }) {
    const onSubmit = vi.fn(async (_submission: EmailCallbackFormSubmission) => {});
    render(
      <NextIntlClientProvider locale={locale.locale} messages={locale.messages}>
        <ToastsOnDemandProvider>
          <TooltipProvider delayDuration={700}>
            <EmailCallbackForm
              mode="create"
              domainChoices={domainChoices}
              defaultValues={getEmptyEmailCallbackFormValues(domainChoices.operatorDomains)}
              onSubmit={onSubmit}
            />
          </TooltipProvider>
        </ToastsOnDemandProvider>
      </NextIntlClientProvider>,
    );
    return { user: userEvent.setup(), onSubmit };
  }

  it("groups the user's domains apart from the service's, each IDN shown as typed", () => {
    renderForm();
    const select = screen.getByRole("combobox", { name: locale.labels.domain });
    const own = within(select).getByRole("group", { name: locale.groups.own });
    const operator = within(select).getByRole("group", { name: locale.groups.operator });
    const ownOption = within(own).getByRole("option", { name: "bücher.example" });
    expect((ownOption as HTMLOptionElement).value).toBe("xn--bcher-kva.example");
    expect(within(operator).getByRole("option", { name: "hookmail.test" })).toBeTruthy();
  });

  it("lists the service's domains without groups when the user has none", () => {
    renderForm({ operatorDomains: ["hookmail.test"], ownDomains: [] });
    const select = screen.getByRole("combobox", { name: locale.labels.domain });
    expect(within(select).queryAllByRole("group")).toEqual([]);
    expect(within(select).getByRole("option", { name: "hookmail.test" })).toBeTruthy();
  });

  it("explains `*` once the user's domain is chosen, and not on the service's", async () => {
    const { user } = renderForm();
    // The help describes the address's group (its text is broken by <code> elements).
    expect(screen.queryByRole("group", { description: locale.help })).toBeNull();
    await user.selectOptions(screen.getByRole("combobox", { name: locale.labels.domain }), "xn--bcher-kva.example");
    expect(screen.getByRole("group", { description: locale.help })).toBeTruthy();
    await user.selectOptions(screen.getByRole("combobox", { name: locale.labels.domain }), "hookmail.test");
    expect(screen.queryByRole("group", { description: locale.help })).toBeNull();
  });

  it("refuses `*` on the service's domain with the API's words, and sends it on the user's domain", async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText(locale.labels.username), "*");
    await user.type(screen.getByLabelText(locale.labels.webhookUrl), "https://receiver.example/hook");
    await user.click(screen.getByRole("button", { name: locale.labels.submit }));
    expect(await screen.findByText(locale.refused)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.selectOptions(screen.getByRole("combobox", { name: locale.labels.domain }), "xn--bcher-kva.example");
    expect(screen.queryByText(locale.refused)).toBeNull();
    await user.click(screen.getByRole("button", { name: locale.labels.submit }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ values: expect.objectContaining({ username: "*", domain: "xn--bcher-kva.example" }) }),
    );
  });
});
