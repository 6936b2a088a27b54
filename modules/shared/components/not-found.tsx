// The 404 page: the logo (a link home, as on every page), the language switch of the public
// pages, Not Found, and a button back home. Plain links (a full load of the home page), not
// next/link: every page's first load fetches the 404 page's client code with it, and next/link's
// there would be a second copy (~3 kB gzip). The language switch comes from the page (shared/
// knows no feature); it is no new code there: the public layout and the account menu load it already.
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Logo } from "./logo";

export function NotFound({ languageSwitch }: { languageSwitch: ReactNode }) {
  const t = useTranslations("notFound");
  const tLayout = useTranslations("layout");
  return (
    <div className="flex min-h-svh flex-col">
      <header className="border-b">
        <div className="mx-auto flex h-14 max-w-5xl items-center justify-between px-4">
          <a href="/" aria-label={tLayout("home")}>
            <Logo />
          </a>
          {languageSwitch}
        </div>
      </header>
      <main className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center">
        <p className="text-muted-foreground text-sm font-semibold tracking-widest">{t("code")}</p>
        <h1 className="text-3xl font-bold tracking-tight">{t("title")}</h1>
        <p className="text-muted-foreground max-w-md">{t("description")}</p>
        <Button asChild className="mt-4">
          <a href="/">{t("goHome")}</a>
        </Button>
      </main>
    </div>
  );
}
