import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppLayout } from "@/modules/app-shell/components/app-layout";
import { formatPublicConfig } from "@/modules/config/config.models";
import { readPageSession } from "@/modules/server/page-session";
import { getServices } from "@/modules/server/services";

// The session and the public config are read here, so that the first render already has the top
// bar and the page (docs/architecture.md: The parts); signed out, to /login as the browser would.
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const found = await readPageSession();
  if (!found) redirect("/login");
  return (
    <AppLayout session={found.session} config={formatPublicConfig(getServices().config)}>
      {children}
    </AppLayout>
  );
}
