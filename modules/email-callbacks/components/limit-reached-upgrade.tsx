"use client";
// Under the "limit reached" message of the address form: the way past it, the Upgrade button (for a
// free user on an instance with billing; it shows nothing otherwise).
import { useSession } from "@/modules/auth/use-session";
import { UpgradeButton } from "@/modules/billing/components/upgrade-button";

export function LimitReachedUpgrade() {
  const { data: session } = useSession();
  return session ? <UpgradeButton planId={session.user.planId} /> : null;
}
