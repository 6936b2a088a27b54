// Headers every response of the web role carries (docs/security.md): no framing by other sites
// (clickjacking), no MIME sniffing, referrers cut to the origin across sites, a content security
// policy, and HSTS when the app is served over https.
//
// The policy allows inline scripts and styles: Next.js bootstraps each page with inline scripts, and
// nonces would make every page dynamic. It still keeps scripts, connections and frames to the app's
// own origin (and the analytics host when one is configured), and forbids plugins and <base>.
import type { Config } from "@/modules/config/config";

const TWO_YEARS_SECONDS = 63_072_000;

/** PostHog's api host serves the calls; its scripts (remote config, extensions) come from *.posthog.com. */
function analyticsSources(posthogHost: string | undefined): string[] {
  if (!posthogHost) return [];
  const sources = [new URL(posthogHost).origin];
  if (/(^|\.)posthog\.com$/i.test(new URL(posthogHost).hostname)) sources.push("https://*.posthog.com");
  return sources;
}

export function buildContentSecurityPolicy(config: Pick<Config, "analytics">): string {
  const analytics = config.analytics.posthogKey ? analyticsSources(config.analytics.posthogHost) : [];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'unsafe-inline'", ...analytics],
    "style-src": ["'self'", "'unsafe-inline'"],
    // http: too: a mail's HTML frame (srcdoc) is held to this policy as well as to its own, which
    // lets remote images load only once the user asks (modules/processings/components/message-parts.tsx).
    "img-src": ["'self'", "data:", "blob:", "https:", "http:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...analytics],
    "worker-src": ["'self'", "blob:"],
    "frame-src": ["'none'"],
    "frame-ancestors": ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

export function buildSecurityHeaders(config: Pick<Config, "baseUrl" | "analytics">): Record<string, string> {
  return {
    "Content-Security-Policy": buildContentSecurityPolicy(config),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    ...(new URL(config.baseUrl).protocol === "https:"
      ? { "Strict-Transport-Security": `max-age=${TWO_YEARS_SECONDS}; includeSubDomains` }
      : {}),
  };
}
