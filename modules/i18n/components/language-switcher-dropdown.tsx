"use client";
// The language switcher's menu, loaded when it is first opened (language-switcher.tsx), and the
// locales as radio items (also in the account menu's language submenu).
import { useLocale, useTranslations } from "next-intl";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { LOCALES } from "../i18n.constants";
import { isLocale } from "../locale.models";
import { useChangeLocale } from "../use-change-locale";
import { LanguageSwitcherButton } from "./language-switcher-button";
import { LocaleLabel } from "./locale-label";

export function LanguageSwitcherDropdown() {
  const t = useTranslations("languages");
  const locale = useLocale();
  const { changeLocale, isPending } = useChangeLocale();
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>
        <LanguageSwitcherButton disabled={isPending} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>{t("label")}</DropdownMenuLabel>
        <LocaleRadioItems value={locale} onChange={changeLocale} />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function LocaleRadioItems({ value, onChange }: { value: string; onChange: (locale: (typeof LOCALES)[number]) => void }) {
  return (
    <DropdownMenuRadioGroup value={value} onValueChange={(next) => isLocale(next) && onChange(next)}>
      {LOCALES.map((locale) => (
        <DropdownMenuRadioItem key={locale} value={locale}>
          <LocaleLabel locale={locale} />
        </DropdownMenuRadioItem>
      ))}
    </DropdownMenuRadioGroup>
  );
}
