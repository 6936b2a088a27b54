"use client";
// Client-side providers of every page: queries, tooltips, toasts and the instance config.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Toaster } from "@/components/ui/sonner";
import { TooltipProvider } from "@/components/ui/tooltip";
import { ConfigProvider } from "@/modules/config/components/config-provider";

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <ConfigProvider>{children}</ConfigProvider>
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
