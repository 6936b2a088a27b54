"use client";
// Under the "limit reached" message of the address form: the way past it, the Upgrade button (for a
// free user on an instance with billing; it shows nothing otherwise).
import { authClient } from "@/modules/auth/auth.client";
import { UpgradeButton } from "@/modules/billing/components/upgrade-button";

export function LimitReachedUpgrade() {
  const { data: session } = authClient.useSession();
  const planId = (session?.user as { planId?: string | null } | undefined)?.planId;
  return session ? <UpgradeButton planId={planId} /> : null;
}
