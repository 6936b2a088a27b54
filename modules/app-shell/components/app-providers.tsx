"use client";
// Client-side providers of every page: queries, toasts (their toaster loads with the first one:
// toasts-on-demand.tsx), and whether the instance has billing (from the server's configuration, so
// that no page asks for plans in vain).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { BillingAvailabilityProvider } from "@/modules/billing/components/billing-availability";
import { ToastsOnDemandProvider } from "@/modules/shared/components/toasts-on-demand";

export function AppProviders({ isBillingEnabled, children }: { isBillingEnabled: boolean; children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ToastsOnDemandProvider>
        <BillingAvailabilityProvider isEnabled={isBillingEnabled}>{children}</BillingAvailabilityProvider>
      </ToastsOnDemandProvider>
    </QueryClientProvider>
  );
}
