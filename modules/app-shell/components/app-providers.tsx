"use client";
// Client-side providers of every page: queries, toasts, and whether the instance has billing
// (from the server's configuration, so that no page asks for plans in vain).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Toaster } from "@/components/ui/sonner";
import { BillingAvailabilityProvider } from "@/modules/billing/components/billing-availability";

export function AppProviders({ isBillingEnabled, children }: { isBillingEnabled: boolean; children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <BillingAvailabilityProvider isEnabled={isBillingEnabled}>{children}</BillingAvailabilityProvider>
      <Toaster />
    </QueryClientProvider>
  );
}
