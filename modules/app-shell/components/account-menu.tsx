"use client";
// The top bar's account menu (its dropdown: account-menu-dropdown.tsx, loaded when first opened).
import { CircleUserIcon } from "lucide-react";
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { MenuOnDemand } from "@/modules/shared/components/menu-on-demand";

const loadAccountMenuDropdown = () => import("./account-menu-dropdown");
const AccountMenuDropdown = dynamic(() => loadAccountMenuDropdown().then((module) => module.AccountMenuDropdown), {
  ssr: false,
});

export function AccountMenu({ user }: { user: { name: string; email: string } }) {
  const t = useTranslations("layout");
  const trigger = (
    <Button variant="ghost" size="icon" aria-label={t("accountMenu")}>
      <CircleUserIcon className="size-5" aria-hidden />
    </Button>
  );
  return (
    <MenuOnDemand
      trigger={trigger}
      preload={loadAccountMenuDropdown}
      menu={<AccountMenuDropdown user={user} trigger={trigger} />}
    />
  );
}
