// Picks the interface language: the stored choice, else the browser's languages (Accept-Language,
// by quality), else English.
import { DEFAULT_LOCALE, LOCALES, type Locale } from "./i18n.constants";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...parameters] = part.trim().split(";");
      const qualityParameter = parameters.find((parameter) => parameter.trim().startsWith("q="));
      const quality = qualityParameter ? Number(qualityParameter.trim().slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter(({ tag, quality }) => tag && tag !== "*" && quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map(({ tag }) => tag);
}

export function resolveLocale({
  storedLocale,
  acceptLanguage,
}: {
  storedLocale: string | null | undefined;
  acceptLanguage: string | null | undefined;
}): Locale {
  if (isLocale(storedLocale)) return storedLocale;
  for (const tag of parseAcceptLanguage(acceptLanguage)) {
    const language = tag.split("-")[0];
    if (isLocale(language)) return language;
  }
  return DEFAULT_LOCALE;
}
