// @vitest-environment jsdom
// The delivery alerts card against a stubbed network (the edge of the browser): it shows the
// account's setting from GET /api/users/me and saves a change with PUT /api/users/me at once.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { NextIntlClientProvider } from "next-intl";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { ToastsOnDemandProvider } from "@/modules/shared/components/toasts-on-demand";
import { DeliveryAlertsCard } from "./delivery-alerts-card";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const USER = { id: "usr_1", email: "ada@example.com", name: "Ada", planId: "free", emailVerified: true };

/** A server holding `deliveryAlerts`, answering GET and PUT /api/users/me; records each request. */
function stubServer(deliveryAlerts: boolean) {
  let stored = deliveryAlerts;
  const requests: { method: string; body: unknown }[] = [];
  const fetch = vi.fn(async (_path: string, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ method, body });
    if (method === "PUT") stored = body.deliveryAlerts;
    return Response.json({ user: { ...USER, deliveryAlerts: stored } });
  });
  vi.stubGlobal("fetch", fetch);
  return { requests };
}

function renderCard(locale: "en" | "fr" = "en") {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <NextIntlClientProvider locale={locale} messages={locale === "en" ? en : fr}>
        <ToastsOnDemandProvider>
          <DeliveryAlertsCard />
        </ToastsOnDemandProvider>
      </NextIntlClientProvider>
    </QueryClientProvider>,
  );
}

describe("the delivery alerts card", () => {
  it("shows the stored setting, and turns alerts off with a PUT of that field alone", async () => {
    const { requests } = stubServer(true);
    renderCard();
    const checkbox = screen.getByRole("checkbox", { name: en.settings.deliveryAlerts.label });
    await waitFor(() => expect(checkbox.getAttribute("aria-checked")).toBe("true"));

    await userEvent.setup().click(checkbox);

    await waitFor(() => expect(checkbox.getAttribute("aria-checked")).toBe("false"));
    expect(requests).toEqual([
      { method: "GET", body: undefined },
      { method: "PUT", body: { deliveryAlerts: false } },
    ]);
  });

  it("turns alerts back on, in French too", async () => {
    const { requests } = stubServer(false);
    renderCard("fr");
    expect(screen.getByText(fr.settings.deliveryAlerts.title)).toBeTruthy();
    const checkbox = screen.getByRole("checkbox", { name: fr.settings.deliveryAlerts.label });
    await waitFor(() => expect(checkbox.hasAttribute("disabled")).toBe(false));
    expect(checkbox.getAttribute("aria-checked")).toBe("false");

    await userEvent.setup().click(checkbox);

    await waitFor(() => expect(checkbox.getAttribute("aria-checked")).toBe("true"));
    expect(requests.at(-1)).toEqual({ method: "PUT", body: { deliveryAlerts: true } });
  });
});
