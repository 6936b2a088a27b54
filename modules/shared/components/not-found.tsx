// The 404 page: Not Found, with a button back home.
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";

export function NotFound() {
  const t = useTranslations("notFound");
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-3 p-6 text-center">
      <p className="text-muted-foreground text-sm font-semibold tracking-widest">{t("code")}</p>
      <h1 className="text-3xl font-bold tracking-tight">{t("title")}</h1>
      <p className="text-muted-foreground max-w-md">{t("description")}</p>
      <Button asChild className="mt-4">
        <Link href="/">{t("goHome")}</Link>
      </Button>
    </main>
  );
}
