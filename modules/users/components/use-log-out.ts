"use client";
// Logging out, from the account menu or the settings page: the session ends and the login page opens.
import { useState } from "react";
import { useAnalytics } from "@/modules/analytics/use-analytics";
import { authClient } from "@/modules/auth/auth.client";

export function useLogOut(): { logOut: () => Promise<void>; isLoggingOut: boolean } {
  const [isLoggingOut, setIsLoggingOut] = useState(false);
  const analytics = useAnalytics();
  async function logOut() {
    setIsLoggingOut(true);
    analytics.captureLogout();
    await authClient.signOut();
    analytics.reset();
    window.location.assign("/login");
  }
  return { logOut, isLoggingOut };
}
