"use client";
// The public layout's language dropdown.
import { LanguagesIcon } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { LOCALE_NATIVE_NAMES, LOCALES } from "../i18n.constants";
import { isLocale } from "../locale.models";
import { useChangeLocale } from "../use-change-locale";
import { LocaleLabel } from "./locale-label";

export function LanguageSwitcher() {
  const t = useTranslations("languages");
  const locale = useLocale();
  const { changeLocale, isPending } = useChangeLocale();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={t("label")} disabled={isPending}>
          <LanguagesIcon aria-hidden />
          {LOCALE_NATIVE_NAMES[locale]}
        </Button>
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
