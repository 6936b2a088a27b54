// The config object the client reads from GET /api/config.
import type { Config } from "./config";

export type PublicConfig = {
  auth: {
    providers: { google: { isEnabled: boolean }; github: { isEnabled: boolean } };
    /** AUTH_SHOW_LEGAL_LINKS, and at least one of the links is set. */
    showLegalLinksOnAuthPage: boolean;
    /** TERMS_URL and PRIVACY_URL, null when unset (that link is not shown). */
    legalLinks: { termsUrl: string | null; privacyUrl: string | null };
    isEmailVerificationRequired: boolean;
    isRegistrationEnabled: boolean;
    isPasswordResetEnabled: boolean;
  };
  baseUrl: string;
  emailCallbacks: { availableDomains: string[] };
};

export function formatPublicConfig(config: Config): PublicConfig {
  const { termsUrl, privacyUrl } = config.auth.legalLinks;
  return {
    auth: {
      providers: {
        google: { isEnabled: Boolean(config.auth.google) },
        github: { isEnabled: Boolean(config.auth.github) },
      },
      showLegalLinksOnAuthPage: config.auth.showLegalLinks && Boolean(termsUrl || privacyUrl),
      legalLinks: { termsUrl: termsUrl ?? null, privacyUrl: privacyUrl ?? null },
      isEmailVerificationRequired: config.auth.isEmailVerificationRequired,
      isRegistrationEnabled: config.auth.isRegistrationEnabled,
      isPasswordResetEnabled: config.auth.isPasswordResetEnabled,
    },
    baseUrl: config.baseUrl,
    emailCallbacks: { availableDomains: config.emailDomains },
  };
}
