// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { NextIntlClientProvider } from "next-intl";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import en from "@/messages/en.json";
import { ConfigProvider } from "@/modules/config/components/config-provider";
import { configQueryKeys, DEFAULT_PUBLIC_CONFIG } from "@/modules/config/config.queries";
import { useZodForm } from "@/modules/shared/components/submit-form";
import { ToastsOnDemandProvider } from "@/modules/shared/components/toasts-on-demand";
import { AuthMethodsCard } from "./auth-methods-card";

afterEach(cleanup);

function Card({ namespace }: { namespace: "login" | "register" }) {
  const form = useZodForm(z.object({ email: z.string() }), { email: "" });
  return (
    <AuthMethodsCard namespace={namespace} form={form} onSubmit={async () => undefined}>
      {null}
    </AuthMethodsCard>
  );
}

function renderCard(namespace: "login" | "register", auth: Partial<typeof DEFAULT_PUBLIC_CONFIG.auth>) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(configQueryKeys.all, { ...DEFAULT_PUBLIC_CONFIG, auth: { ...DEFAULT_PUBLIC_CONFIG.auth, ...auth } });
  render(
    <QueryClientProvider client={queryClient}>
      <NextIntlClientProvider locale="en" messages={en}>
        <ConfigProvider>
          <ToastsOnDemandProvider>
            <Card namespace={namespace} />
          </ToastsOnDemandProvider>
        </ConfigProvider>
      </NextIntlClientProvider>
    </QueryClientProvider>,
  );
}

const withGithub = { providers: { ...DEFAULT_PUBLIC_CONFIG.auth.providers, github: { isEnabled: true } } };

describe("the login and register cards", () => {
  it("offer the sign-up link on the login page only while registration is open", () => {
    renderCard("login", { isRegistrationEnabled: true });
    expect(screen.getByRole("link", { name: "Sign up" })).toBeTruthy();
    cleanup();
    renderCard("login", { isRegistrationEnabled: false });
    expect(screen.queryByRole("link", { name: "Sign up" })).toBeNull();
  });

  it("say Login with GitHub on the login page and Sign up with GitHub on the register page", () => {
    renderCard("login", withGithub);
    expect(screen.getByRole("button", { name: "Login with GitHub" })).toBeTruthy();
    cleanup();
    renderCard("register", withGithub);
    expect(screen.getByRole("button", { name: "Sign up with GitHub" })).toBeTruthy();
  });
});
