"use client";
// The inbox's view (page, page size, status, search) kept in the URL's query string: reading it from
// the URL, and moving to another view by a new history entry (the back button returns to the one
// before) or, for a change that refines the current one (typing on in the search box, a page that
// no longer exists), by replacing the current entry.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { type InboxView, readInboxView, writeInboxView } from "../inbox-view";

export function useInboxView(): {
  view: InboxView;
  showView: (view: InboxView, options?: { replace?: boolean }) => void;
} {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const view = useMemo(() => readInboxView(searchParams), [searchParams]);
  const showView = useCallback(
    (next: InboxView, { replace = false }: { replace?: boolean } = {}) => {
      const query = writeInboxView(next);
      const href = query ? `${pathname}?${query}` : pathname;
      if (replace) router.replace(href, { scroll: false });
      else router.push(href, { scroll: false });
    },
    [pathname, router],
  );
  return { view, showView };
}
