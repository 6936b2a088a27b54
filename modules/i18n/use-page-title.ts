"use client";
// A client page's own document title while a state of it shows (an address or a mail that is not
// there): the server's title (page-title.ts) named the route, not what the page found. The title
// the page had comes back when that state goes.
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import type { PageTitleKey } from "./page-title";

export function usePageTitle(key: PageTitleKey) {
  const t = useTranslations("pageTitles");
  const title = `${t(key)} · Hookmail`;
  useEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
