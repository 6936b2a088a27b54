"use client";
// Client-side providers of every page: queries, tooltips, toasts, and whether the instance has
// billing (from the server's configuration, so that no page asks for plans in vain).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Toaster } from "@/components/ui/sonner";
import { TooltipProvider } from "@/components/ui/tooltip";
import { BillingAvailabilityProvider } from "@/modules/billing/components/billing-availability";

export function AppProviders({ isBillingEnabled, children }: { isBillingEnabled: boolean; children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      {/* A tooltip opens after the pointer has rested on its trigger for 700 ms (at once from the keyboard). */}
      <TooltipProvider delayDuration={700}>
        <BillingAvailabilityProvider isEnabled={isBillingEnabled}>{children}</BillingAvailabilityProvider>
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
