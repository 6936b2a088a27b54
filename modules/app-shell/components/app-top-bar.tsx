// The authenticated layout's top bar: the logo linking home, the Upgrade to pro button for free
// users when billing is on, and the account menu.
import Link from "next/link";
import { useTranslations } from "next-intl";
import { UpgradeButton } from "@/modules/billing/components/upgrade-button";
import { Logo } from "@/modules/shared/components/logo";
import { AccountMenu } from "./account-menu";

export function AppTopBar({ user }: { user: { name: string; email: string; planId?: string | null } }) {
  const t = useTranslations("layout");
  return (
    <header className="bg-background sticky top-0 z-40 border-b">
      <div className="mx-auto flex h-14 max-w-5xl items-center justify-between px-4">
        <Link href="/" aria-label={t("home")}>
          <Logo />
        </Link>
        <div className="flex items-center gap-2">
          <UpgradeButton planId={user.planId} />
          <AccountMenu user={user} />
        </div>
      </div>
    </header>
  );
}
