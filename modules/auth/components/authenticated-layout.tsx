"use client";
// The private pages' layout: a spinner while the session is pending, /login when there is none,
// else the top bar and the page.
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect } from "react";
import { AppTopBar } from "@/modules/app-shell/components/app-top-bar";
import { PageSpinner } from "@/modules/shared/components/page-spinner";
import { authClient } from "../auth.client";

export function AuthenticatedLayout({ children }: { children: ReactNode }) {
  const router = useRouter();
  const { data: session, isPending } = authClient.useSession();

  useEffect(() => {
    if (!isPending && !session) router.replace("/login");
  }, [isPending, session, router]);

  if (!session) {
    return <PageSpinner />;
  }
  return (
    <div className="flex min-h-svh flex-col">
      <AppTopBar user={session.user} />
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">{children}</main>
    </div>
  );
}
