// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { NextIntlClientProvider } from "next-intl";
import { afterEach, describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import { ConfigProvider } from "@/modules/config/components/config-provider";
import { configQueryKeys, DEFAULT_PUBLIC_CONFIG } from "@/modules/config/config.queries";
import { ToastsOnDemandProvider } from "@/modules/shared/components/toasts-on-demand";
import { AuthMethods } from "./auth-methods";

afterEach(cleanup);

function renderWithGithub() {
  const queryClient = new QueryClient();
  const config = {
    ...DEFAULT_PUBLIC_CONFIG,
    auth: { ...DEFAULT_PUBLIC_CONFIG.auth, providers: { ...DEFAULT_PUBLIC_CONFIG.auth.providers, github: { isEnabled: true } } },
  };
  queryClient.setQueryData(configQueryKeys.all, config);
  render(
    <QueryClientProvider client={queryClient}>
      <NextIntlClientProvider locale="en" messages={en}>
        <ConfigProvider>
          <ToastsOnDemandProvider>
            <AuthMethods emailButtonLabel="Login with email">
              <form>
                <label>
                  Email <input type="email" />
                </label>
              </form>
            </AuthMethods>
          </ToastsOnDemandProvider>
        </ConfigProvider>
      </NextIntlClientProvider>
    </QueryClientProvider>,
  );
}

describe("AuthMethods", () => {
  it("moves focus to the email field when the email button reveals the form (it does not drop to the page)", async () => {
    renderWithGithub();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Login with email" }));
    expect(screen.queryByRole("button", { name: "Login with email" })).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText("Email"));
  });
});
