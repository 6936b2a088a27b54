// The locale of an HTTP request, outside React (mails sent while serving a request).
import { LOCALE_COOKIE_NAME, type Locale } from "./i18n.constants";
import { resolveLocale } from "./locale.models";

function readCookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

export function resolveRequestLocale(request: Request | undefined): Locale {
  return resolveLocale({
    storedLocale: readCookie(request?.headers.get("cookie") ?? null, LOCALE_COOKIE_NAME),
    acceptLanguage: request?.headers.get("accept-language"),
  });
}
