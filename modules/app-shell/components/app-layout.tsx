"use client";
// The signed-in pages' frame: the session guard of auth with the app's top bar, and the instance's
// public config, both read by the server for the first render.
import { Activity, type ReactNode } from "react";
import { AuthenticatedLayout } from "@/modules/auth/components/authenticated-layout";
import type { Session } from "@/modules/auth/use-session";
import { ConfigProvider } from "@/modules/config/components/config-provider";
import type { PublicConfig } from "@/modules/config/config.models";
import { AppTopBar } from "./app-top-bar";

export function AppLayout({ session, config, children }: { session: Session; config: PublicConfig; children: ReactNode }) {
  return (
    <ConfigProvider config={config}>
      {/* The top bar is hydrated on its own, after the frame, in slices that leave the main thread
          free in between (docs/architecture.md: The first render). */}
      <AuthenticatedLayout
        session={session}
        topBar={(user) => (
          <Activity>
            <AppTopBar user={user} />
          </Activity>
        )}
      >
        {children}
      </AuthenticatedLayout>
    </ConfigProvider>
  );
}
