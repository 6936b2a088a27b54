"use client";
// The language switcher's button: the current language's name (language-switcher.tsx shows it until
// the menu is first opened, language-switcher-dropdown.tsx then as the menu's trigger).
import { LanguagesIcon } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
import type { ComponentProps } from "react";
import { Button } from "@/components/ui/button";
import { LOCALE_NATIVE_NAMES } from "../i18n.constants";

export function LanguageSwitcherButton(props: ComponentProps<typeof Button>) {
  const t = useTranslations("languages");
  const locale = useLocale();
  return (
    <Button variant="ghost" size="sm" aria-label={t("label")} {...props}>
      <LanguagesIcon aria-hidden />
      {LOCALE_NATIVE_NAMES[locale]}
    </Button>
  );
}
