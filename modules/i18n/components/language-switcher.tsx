"use client";
// The public layout's language dropdown (its menu: language-switcher-dropdown.tsx, loaded when first
// opened).
import dynamic from "next/dynamic";
import { MenuOnDemand } from "@/modules/shared/components/menu-on-demand";
import { LanguageSwitcherButton } from "./language-switcher-button";

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
