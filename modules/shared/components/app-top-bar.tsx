// The authenticated layout's top bar: the logo linking home, and the account menu.
import Link from "next/link";
import { useTranslations } from "next-intl";
import { AccountMenu } from "./account-menu";
import { Logo } from "./logo";

export function AppTopBar({ user }: { user: { name: string; email: string } }) {
  const t = useTranslations("layout");
  return (
    <header className="bg-background sticky top-0 z-40 border-b">
      <div className="mx-auto flex h-14 max-w-5xl items-center justify-between px-4">
        <Link href="/" aria-label={t("home")}>
          <Logo />
        </Link>
        <AccountMenu user={user} />
      </div>
    </header>
  );
}
