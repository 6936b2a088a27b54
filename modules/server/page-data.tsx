// A signed-in page's first data, read on the server (docs/architecture.md: The first render): the
// page names the queries its client components will ask for and how the API answers each; they are
// answered here, for the request's session, and handed to the browser's query cache with the page,
// so its first render already shows the content instead of a skeleton and a request. A query that
// fails here (a mail of another user: not found) is left out, and the browser asks for it as before
// and shows what it shows today. The browser's cache then refreshes them as it always does.
import { dehydrate, HydrationBoundary, QueryClient, type QueryKey } from "@tanstack/react-query";
import { Activity, type ReactNode } from "react";
import type { Caller } from "@/modules/auth/caller";
import { readPageSession } from "./page-session";
import { getServices, type Services } from "./services";

/** One query of the page: its key in the browser's cache, and the API's answer to it. */
export type PageQuery = { queryKey: QueryKey; answer: () => Promise<unknown> };

export async function PageData({
  queries,
  children,
}: {
  /** The page's queries for this caller; none when no one is signed in (the layout sends them to /login). */
  queries: (context: { caller: Caller; services: Services }) => PageQuery[];
  children: ReactNode;
}) {
  const queryClient = new QueryClient();
  const found = await readPageSession();
  if (found) {
    const context = { caller: found.caller, services: getServices() };
    await Promise.all(queries(context).map(({ queryKey, answer }) => queryClient.prefetchQuery({ queryKey, queryFn: answer })));
  }
  // An Activity boundary: the document carries its content as it would without one (it has no
  // fallback and never streams apart), and the browser hydrates it apart from the frame, in slices
  // that leave the main thread free in between.
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <Activity>{children}</Activity>
    </HydrationBoundary>
  );
}
