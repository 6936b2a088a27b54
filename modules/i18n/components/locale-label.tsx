// A locale shown by its own name and, beside it, its name in the current language.
import { useTranslations } from "next-intl";
import { LOCALE_NATIVE_NAMES, type Locale } from "../i18n.constants";

export function LocaleLabel({ locale }: { locale: Locale }) {
  const t = useTranslations("languages");
  const localizedName = t(locale);
  const nativeName = LOCALE_NATIVE_NAMES[locale];
  return (
    <span lang={locale}>
      {nativeName}
      {localizedName !== nativeName ? <span className="text-muted-foreground"> ({localizedName})</span> : null}
    </span>
  );
}
