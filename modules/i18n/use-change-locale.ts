"use client";
// Stores the chosen language in its cookie and re-renders the page in it.
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { LOCALE_COOKIE_MAX_AGE_SECONDS, LOCALE_COOKIE_NAME, type Locale } from "./i18n.constants";

export function useChangeLocale() {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  function changeLocale(locale: Locale) {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and older Safari
    document.cookie = `${LOCALE_COOKIE_NAME}=${locale}; path=/; max-age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; samesite=lax`;
    document.documentElement.lang = locale;
    startTransition(() => router.refresh());
  }
  return { changeLocale, isPending };
}
