// The interface's languages. The choice is kept in a cookie whose name is Hookmail's own (hookmail-locale).
export const LOCALES = ["en", "fr"] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = "en";
export const LOCALE_COOKIE_NAME = "hookmail-locale";
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Each locale's name in its own language (shown beside the localized name). */
export const LOCALE_NATIVE_NAMES = { en: "English", fr: "Français" } as const satisfies Record<Locale, string>;
