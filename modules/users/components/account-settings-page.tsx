"use client";
// The account settings page: the signed-in user's settings, once the session is known.
import { useSession } from "@/modules/auth/use-session";
import { AccountSettings } from "./account-settings";

export function AccountSettingsPage() {
  const { data: session } = useSession();
  return session ? <AccountSettings user={session.user} /> : null;
}
