import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppLayout } from "@/modules/app-shell/components/app-layout";
import { readRequestSession } from "@/modules/auth/server-session";
import { formatPublicConfig } from "@/modules/config/config.models";
import { getServices } from "@/modules/server/services";

// The session and the public config are read here, so that the first render already has the top
// bar and the page (docs/architecture.md: The parts); signed out, to /login as the browser would.
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const services = getServices();
  const session = await readRequestSession(await services.auth(), await headers());
  if (!session) redirect("/login");
  return (
    <AppLayout session={session} config={formatPublicConfig(services.config)}>
      {children}
    </AppLayout>
  );
}
