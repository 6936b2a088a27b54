// Product analytics: the events we send and the PostHog settings.
export const ANALYTICS_EVENTS = {
  PAGE_VIEW: "$pageview",
  USER_LOGGED_OUT: "user_logged_out",
} as const;

/** The session and capture settings, in posthog-js's terms. posthog-js filters known bot user agents by default. */
export const POSTHOG_SETTINGS = {
  SESSION_IDLE_TIMEOUT_SECONDS: 1800,
  FEATURE_FLAG_REQUEST_TIMEOUT_MS: 3000,
  SURVEYS_REQUEST_TIMEOUT_MS: 10_000,
  /** posthog-js's own default request timeout; it has no option for it. */
  REQUEST_TIMEOUT_MS: 60_000,
  COOKIE_EXPIRATION_DAYS: 365,
  PROPERTIES_STRING_MAX_LENGTH: 65_535,
} as const;
