import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import type { ReactNode } from "react";
import { AnalyticsProvider } from "@/modules/analytics/components/analytics-provider";
import { AppProviders } from "@/modules/app-shell/components/app-providers";
import { getServices } from "@/modules/server/services";
import "./globals.css";

export const metadata: Metadata = {
  // Each page names itself (modules/i18n/page-title.ts): "Inbox · Hookmail".
  title: { template: "%s · Hookmail", default: "Hookmail" },
  description: "Receive email at your own addresses and get every message as a signed webhook.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  // Read per request (not inlined at build time), so one build serves instances with and without analytics.
  const { analytics, billing } = getServices().config;
  const { posthogKey, posthogHost } = analytics;
  return (
    <html lang={locale}>
      <body className="antialiased">
        <NextIntlClientProvider>
          <AnalyticsProvider posthogKey={posthogKey} posthogHost={posthogHost}>
            <AppProviders isBillingEnabled={billing.isEnabled}>{children}</AppProviders>
          </AnalyticsProvider>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
