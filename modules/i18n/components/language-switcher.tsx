"use client";
// The public layout's language dropdown (its menu: language-switcher-dropdown.tsx, loaded when first
// opened).
import { LanguagesIcon } from "lucide-react";
import dynamic from "next/dynamic";
import { useLocale, useTranslations } from "next-intl";
import type { ComponentProps } from "react";
import { Button } from "@/components/ui/button";
import { MenuOnDemand } from "@/modules/shared/components/menu-on-demand";
import { LOCALE_NATIVE_NAMES } from "../i18n.constants";

const loadLanguageSwitcherDropdown = () => import("./language-switcher-dropdown");
const LanguageSwitcherDropdown = dynamic(() => loadLanguageSwitcherDropdown().then((module) => module.LanguageSwitcherDropdown), {
  ssr: false,
});

export function LanguageSwitcher() {
  return (
    <MenuOnDemand
      trigger={<LanguageSwitcherButton />}
      preload={loadLanguageSwitcherDropdown}
      menu={<LanguageSwitcherDropdown />}
    />
  );
}

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
