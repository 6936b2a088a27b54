"use client";
// The account settings page: the signed-in user's settings, once the session is known.
import { authClient } from "@/modules/auth/auth.client";
import { AccountSettings } from "./account-settings";

export function AccountSettingsPage() {
  const { data: session } = authClient.useSession();
  return session ? <AccountSettings user={session.user} /> : null;
}
