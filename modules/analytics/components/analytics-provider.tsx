"use client";
import { usePathname, useSearchParams } from "next/navigation";
// Product analytics in the browser. The server passes the PostHog key
// and host read at request time; without them posthog-js is not even loaded and nothing is sent.
// With them: a $pageview on each route change, the signed-in user identified by id with {email}.
import type { PostHog } from "posthog-js";
import { createContext, type ReactNode, Suspense, useContext, useEffect, useState } from "react";
import { useSession } from "@/modules/auth/use-session";
import { ANALYTICS_EVENTS, POSTHOG_SETTINGS } from "../analytics.constants";
import { type AnalyticsSettings, isAnalyticsConfigured } from "../analytics.models";

const AnalyticsContext = createContext<PostHog | null>(null);

/** The loaded PostHog client, or null when analytics are off or still loading. */
export function usePostHogClient() {
  return useContext(AnalyticsContext);
}

export function AnalyticsProvider({ posthogKey, posthogHost, children }: AnalyticsSettings & { children: ReactNode }) {
  const [posthog, setPosthog] = useState<PostHog | null>(null);

  useEffect(() => {
    const settings = { posthogKey, posthogHost };
    if (!isAnalyticsConfigured(settings)) return;
    let isCancelled = false;
    import("posthog-js").then(
      ({ default: client }) => {
        if (isCancelled) return;
        client.init(settings.posthogKey, {
          api_host: settings.posthogHost,
          capture_pageview: false,
          capture_pageleave: false,
          persistence: "cookie",
          cookie_expiration: POSTHOG_SETTINGS.COOKIE_EXPIRATION_DAYS,
          session_idle_timeout_seconds: POSTHOG_SETTINGS.SESSION_IDLE_TIMEOUT_SECONDS,
          feature_flag_request_timeout_ms: POSTHOG_SETTINGS.FEATURE_FLAG_REQUEST_TIMEOUT_MS,
          surveys_request_timeout_ms: POSTHOG_SETTINGS.SURVEYS_REQUEST_TIMEOUT_MS,
          properties_string_max_length: POSTHOG_SETTINGS.PROPERTIES_STRING_MAX_LENGTH,
          opt_out_useragent_filter: false,
          person_profiles: "identified_only",
        });
        setPosthog(client);
      },
      // The library did not load (offline, a failed chunk): analytics stay off, as when not configured.
      () => {},
    );
    return () => {
      isCancelled = true;
    };
  }, [posthogKey, posthogHost]);

  return (
    <AnalyticsContext.Provider value={posthog}>
      {posthog ? (
        <>
          <Suspense fallback={null}>
            <PageViewTracker posthog={posthog} />
          </Suspense>
          <UserIdentifier posthog={posthog} />
        </>
      ) : null}
      {children}
    </AnalyticsContext.Provider>
  );
}

function PageViewTracker({ posthog }: { posthog: PostHog }) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  useEffect(() => {
    const url = `${window.location.origin}${pathname}${search ? `?${search}` : ""}`;
    posthog.capture(ANALYTICS_EVENTS.PAGE_VIEW, { $current_url: url });
  }, [posthog, pathname, search]);
  return null;
}

function UserIdentifier({ posthog }: { posthog: PostHog }) {
  const { data: session } = useSession();
  const userId = session?.user.id;
  const email = session?.user.email;
  useEffect(() => {
    if (userId && posthog.get_distinct_id() !== userId) posthog.identify(userId, { email });
  }, [posthog, userId, email]);
  return null;
}
