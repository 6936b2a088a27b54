"use client";
// The instance configuration for what it wraps: the one the server handed in (the signed-in pages'
// layout reads it there), else loaded before anything renders: a spinner while loading, the
// "server unreachable" screen when it fails.
import { useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext } from "react";
import { PageSpinner } from "@/modules/shared/components/page-spinner";
import type { PublicConfig } from "../config.models";
import { configQueryKeys, fetchPublicConfig } from "../config.queries";
import { ServerUnreachable } from "./server-unreachable";

const ConfigContext = createContext<PublicConfig | null>(null);

export function ConfigProvider({ config, children }: { config?: PublicConfig; children: ReactNode }) {
  if (config) return <ConfigContext.Provider value={config}>{children}</ConfigContext.Provider>;
  return <LoadedConfigProvider>{children}</LoadedConfigProvider>;
}

function LoadedConfigProvider({ children }: { children: ReactNode }) {
  const query = useQuery({ queryKey: configQueryKeys.all, queryFn: fetchPublicConfig, staleTime: Infinity });
  if (query.isPending) {
    return <PageSpinner />;
  }
  if (query.isError) return <ServerUnreachable onRetry={() => query.refetch()} />;
  return <ConfigContext.Provider value={query.data}>{children}</ConfigContext.Provider>;
}

export function useAppConfig(): PublicConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error("useAppConfig must be used inside <ConfigProvider>");
  return config;
}
