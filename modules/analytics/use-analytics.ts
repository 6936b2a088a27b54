"use client";
// What the app tells analytics besides page views: the logout event and the identity reset.
// Both do nothing when analytics are off.
import { useMemo } from "react";
import { ANALYTICS_EVENTS } from "./analytics.constants";
import { usePostHogClient } from "./components/analytics-provider";

export function useAnalytics() {
  const posthog = usePostHogClient();
  return useMemo(
    () => ({
      captureLogout() {
        posthog?.capture(ANALYTICS_EVENTS.USER_LOGGED_OUT, {}, { send_instantly: true });
      },
      reset() {
        posthog?.reset();
      },
    }),
    [posthog],
  );
}
