// A signed-in page's first data, read on the server (docs/architecture.md: The first render): the
// page names the queries its client components will ask for and how the API answers each; they are
// answered here, for the request's session, and handed to the browser's query cache with the page,
// so its first render already shows the content instead of a skeleton and a request. A query that
// fails here (a mail of another user: not found) is left out, and the browser asks for it as before
// and shows what it shows today. The browser's cache then refreshes them as it always does.
import { dehydrate, HydrationBoundary, QueryClient, type QueryKey } from "@tanstack/react-query";
import { type ReactNode, Suspense } from "react";
import type { Caller } from "@/modules/auth/caller";
import { readPageSession } from "./page-session";
import { getServices, type Services } from "./services";

/** One query of the page: its key in the browser's cache, and the API's answer to it. */
export type PageQuery = { queryKey: QueryKey; answer: () => Promise<unknown> };

export async function PageData({
  queries,
  of = "page",
  children,
}: {
  /**
   * A page's content is hydrated apart from the frame (below); a layout's is not: its children are
   * pages still being rendered on the server, and a boundary around them would send the document
   * without them, streamed after it.
   */
  of?: "page" | "layout";
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
  // A page's boundary renders at once on the server (its data is in by now: the document carries
  // the content, with no fallback), and lets the browser hydrate the page apart from the frame, in
  // slices that leave the main thread free in between.
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      {of === "page" ? <Suspense>{children}</Suspense> : children}
    </HydrationBoundary>
  );
}
