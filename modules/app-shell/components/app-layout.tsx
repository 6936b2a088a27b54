"use client";
// The signed-in pages' frame: the session guard of auth with the app's top bar.
import type { ReactNode } from "react";
import { AuthenticatedLayout } from "@/modules/auth/components/authenticated-layout";
import { AppTopBar } from "./app-top-bar";

export function AppLayout({ children }: { children: ReactNode }) {
  return <AuthenticatedLayout topBar={(user) => <AppTopBar user={user} />}>{children}</AuthenticatedLayout>;
}
