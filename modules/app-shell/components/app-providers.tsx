"use client";
// Client-side providers of every page: queries, tooltips, toasts, the instance config, and whether
// the instance has billing (from the server's configuration, so that no page asks for plans in vain).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { type ReactNode, useEffect, useState } from "react";
import { setLazyLoadErrorHandler } from "@/components/ui/lazy-primitive";
import { Toaster, toast } from "@/components/ui/sonner";
import { TooltipProvider } from "@/components/ui/tooltip";
import { BillingAvailabilityProvider } from "@/modules/billing/components/billing-availability";
import { ConfigProvider } from "@/modules/config/components/config-provider";

export function AppProviders({ isBillingEnabled, children }: { isBillingEnabled: boolean; children: ReactNode }) {
  const tApiErrors = useTranslations("apiErrors");
  // A menu or dialog whose code cannot be loaded (the network went away) says so instead of not opening.
  useEffect(() => {
    setLazyLoadErrorHandler(() => toast.error(tApiErrors("network.unreachable")));
    return () => setLazyLoadErrorHandler(null);
  }, [tApiErrors]);
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <ConfigProvider>
          <BillingAvailabilityProvider isEnabled={isBillingEnabled}>{children}</BillingAvailabilityProvider>
        </ConfigProvider>
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
