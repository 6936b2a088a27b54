// next-intl's per-request configuration (no locale in the URL): the locale comes from the
// stored cookie, else the browser's Accept-Language, else English.
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { LOCALE_COOKIE_NAME } from "./i18n.constants";
import { resolveLocale } from "./locale.models";
import { loadMessages } from "./messages";

export default getRequestConfig(async () => {
  const [cookieStore, headerStore] = await Promise.all([cookies(), headers()]);
  const locale = resolveLocale({
    storedLocale: cookieStore.get(LOCALE_COOKIE_NAME)?.value,
    acceptLanguage: headerStore.get("accept-language"),
  });
  return { locale, messages: await loadMessages(locale) };
});
