// @vitest-environment jsdom
// The legal line under the auth cards links to the operator's own pages (TERMS_URL, PRIVACY_URL),
// never to a site of its own choosing.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { NextIntlClientProvider } from "next-intl";
import { afterEach, describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { ConfigProvider } from "@/modules/config/components/config-provider";
import { configQueryKeys, DEFAULT_PUBLIC_CONFIG } from "@/modules/config/config.queries";
import { LegalLinks } from "./legal-links";

afterEach(cleanup);

const TERMS_URL = "https://example.org/terms";
const PRIVACY_URL = "https://example.org/privacy";

function renderLegalLinks(
  legalLinks: { termsUrl: string | null; privacyUrl: string | null },
  { showLegalLinksOnAuthPage = true, locale = "en" }: { showLegalLinksOnAuthPage?: boolean; locale?: "en" | "fr" } = {},
) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(configQueryKeys.all, {
    ...DEFAULT_PUBLIC_CONFIG,
    auth: { ...DEFAULT_PUBLIC_CONFIG.auth, showLegalLinksOnAuthPage, legalLinks },
  });
  const { container } = render(
    <QueryClientProvider client={queryClient}>
      <NextIntlClientProvider locale={locale} messages={locale === "en" ? en : fr}>
        <ConfigProvider>
          <LegalLinks />
        </ConfigProvider>
      </NextIntlClientProvider>
    </QueryClientProvider>,
  );
  return container;
}

describe("the legal links", () => {
  it("link to the instance's own terms and privacy pages", () => {
    renderLegalLinks({ termsUrl: TERMS_URL, privacyUrl: PRIVACY_URL });
    expect(screen.getByRole("link", { name: "Terms of Service" }).getAttribute("href")).toBe(TERMS_URL);
    expect(screen.getByRole("link", { name: "Privacy Policy" }).getAttribute("href")).toBe(PRIVACY_URL);
  });

  it("show only the link that is set, in a sentence of its own", () => {
    renderLegalLinks({ termsUrl: null, privacyUrl: PRIVACY_URL });
    expect(screen.getByRole("link", { name: "Privacy Policy" }).getAttribute("href")).toBe(PRIVACY_URL);
    expect(screen.queryByRole("link", { name: "Terms of Service" })).toBeNull();
    cleanup();
    renderLegalLinks({ termsUrl: TERMS_URL, privacyUrl: null }, { locale: "fr" });
    expect(screen.getByRole("link", { name: "conditions d'utilisation" }).getAttribute("href")).toBe(TERMS_URL);
    expect(screen.queryByRole("link", { name: "politique de confidentialité" })).toBeNull();
  });

  it("are not shown when neither URL is set, nor when the instance hides them", () => {
    expect(renderLegalLinks({ termsUrl: null, privacyUrl: null }).textContent).toBe("");
    cleanup();
    expect(
      renderLegalLinks({ termsUrl: TERMS_URL, privacyUrl: PRIVACY_URL }, { showLegalLinksOnAuthPage: false }).textContent,
    ).toBe("");
  });
});
