"use client";
// Logging out, from the account menu or the settings page: the session ends and the login page opens.
import { useState } from "react";
import { useAnalytics } from "@/modules/analytics/use-analytics";

export function useLogOut(): { logOut: () => Promise<void>; isLoggingOut: boolean } {
  const [isLoggingOut, setIsLoggingOut] = useState(false);
  const analytics = useAnalytics();
  async function logOut() {
    setIsLoggingOut(true);
    analytics.captureLogout();
    // better-auth's client is loaded for this only: it is not part of the signed-in pages' first load.
    const { authClient } = await import("@/modules/auth/auth.client");
    await authClient.signOut();
    analytics.reset();
    window.location.assign("/login");
  }
  return { logOut, isLoggingOut };
}
