"use client";
import { authClient } from "@/modules/auth/auth.client";
import { AccountSettings } from "@/modules/users/components/account-settings";

export default function SettingsPage() {
  const { data: session } = authClient.useSession();
  return session ? <AccountSettings user={session.user} /> : null;
}
