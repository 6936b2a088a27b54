// Whether analytics are on: both the PostHog key and host must be configured.
export type AnalyticsSettings = { posthogKey: string | undefined; posthogHost: string | undefined };

export function isAnalyticsConfigured(settings: AnalyticsSettings): settings is { posthogKey: string; posthogHost: string } {
  return Boolean(settings.posthogKey && settings.posthogHost);
}
