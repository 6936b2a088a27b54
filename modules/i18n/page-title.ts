// Each page's document title, in the user's language (the root layout adds " · Hookmail"): a
// page exports `generateMetadata = pageTitle("…")` with its key under `pageTitles`.
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type en from "@/messages/en.json";

export type PageTitleKey = keyof (typeof en)["pageTitles"];

export function pageTitle(key: PageTitleKey): () => Promise<Metadata> {
  return async () => {
    const t = await getTranslations("pageTitles");
    return { title: t(key) };
  };
}
