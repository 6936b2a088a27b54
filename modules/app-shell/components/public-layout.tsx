// Layout of the public pages: the logo, the language switcher, and the page centred.
import Link from "next/link";
import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/modules/i18n/components/language-switcher";
import { Logo } from "@/modules/shared/components/logo";

export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="bg-muted/40 flex min-h-svh flex-col">
      <header className="flex items-center justify-between px-6 py-4">
        <Link href="/login" aria-label="Hookmail">
          <Logo />
        </Link>
        <LanguageSwitcher />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 sm:items-center sm:pt-0">{children}</main>
    </div>
  );
}
