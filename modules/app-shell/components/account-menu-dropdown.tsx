"use client";
// The account menu's dropdown, loaded when it is first opened (account-menu.tsx): account settings,
// API keys, domains, the webhook format, the API reference, the language submenu and logging out.
import { BookOpenIcon, GlobeIcon, KeyRoundIcon, LanguagesIcon, LogOutIcon, SettingsIcon, WebhookIcon } from "lucide-react";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import type { ReactElement } from "react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { LocaleRadioItems } from "@/modules/i18n/components/language-switcher-dropdown";
import { useChangeLocale } from "@/modules/i18n/use-change-locale";
import { API_REFERENCE_PATH, WEBHOOK_DOCS_PATH } from "@/modules/shared/app-paths";
import { useLogOut } from "@/modules/users/components/use-log-out";

export function AccountMenuDropdown({ user, trigger }: { user: { name: string; email: string }; trigger: ReactElement }) {
  const t = useTranslations("layout");
  const tLanguages = useTranslations("languages");
  const locale = useLocale();
  const { changeLocale } = useChangeLocale();
  const { logOut, isLoggingOut } = useLogOut();
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="flex flex-col">
          <span className="truncate">{user.name}</span>
          <span className="text-muted-foreground truncate text-xs font-normal">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/settings">
            <SettingsIcon aria-hidden />
            {t("accountSettings")}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/api-keys">
            <KeyRoundIcon aria-hidden />
            {t("apiKeys")}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/domains">
            <GlobeIcon aria-hidden />
            {t("domains")}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href={WEBHOOK_DOCS_PATH}>
            <WebhookIcon aria-hidden />
            {t("webhookDocs")}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href={API_REFERENCE_PATH}>
            <BookOpenIcon aria-hidden />
            {t("apiReference")}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuSub>
          <DropdownMenuSubTrigger>
            <LanguagesIcon aria-hidden className="text-muted-foreground size-4" />
            {tLanguages("label")}
          </DropdownMenuSubTrigger>
          <DropdownMenuSubContent>
            <LocaleRadioItems value={locale} onChange={changeLocale} />
          </DropdownMenuSubContent>
        </DropdownMenuSub>
        <DropdownMenuSeparator />
        <DropdownMenuItem disabled={isLoggingOut} onSelect={() => void logOut()}>
          <LogOutIcon aria-hidden />
          {t("logOut")}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
