"use client";
// The private pages' layout: the top bar (the app shell's, handed in) and the page, for the session
// the server read; /login (and a spinner until then) when it no longer holds.
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect } from "react";
import { PageSpinner } from "@/modules/shared/components/page-spinner";
import { type Session, SessionSeedProvider, useSession } from "../use-session";

export type SessionUser = { name: string; email: string; planId?: string | null };

export function AuthenticatedLayout({
  session,
  topBar,
  children,
}: {
  session: Session;
  topBar: (user: SessionUser) => ReactNode;
  children: ReactNode;
}) {
  return (
    <SessionSeedProvider session={session}>
      <SessionGuard topBar={topBar}>{children}</SessionGuard>
    </SessionSeedProvider>
  );
}

function SessionGuard({ topBar, children }: { topBar: (user: SessionUser) => ReactNode; children: ReactNode }) {
  const router = useRouter();
  const { data: session, isPending } = useSession();

  useEffect(() => {
    if (!isPending && !session) router.replace("/login");
  }, [isPending, session, router]);

  if (!session) {
    return <PageSpinner />;
  }
  return (
    <div className="flex min-h-svh flex-col">
      {topBar(session.user)}
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">{children}</main>
    </div>
  );
}
