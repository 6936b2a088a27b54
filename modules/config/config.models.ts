// The config object the client reads from GET /api/config.
import type { Config } from "./config";

export type PublicConfig = {
  auth: {
    providers: { google: { isEnabled: boolean }; github: { isEnabled: boolean } };
    showLegalLinksOnAuthPage: boolean;
    isEmailVerificationRequired: boolean;
    isRegistrationEnabled: boolean;
    isPasswordResetEnabled: boolean;
  };
  baseUrl: string;
  emailCallbacks: { availableDomains: string[] };
};

export function formatPublicConfig(config: Config): PublicConfig {
  return {
    auth: {
      providers: {
        google: { isEnabled: Boolean(config.auth.google) },
        github: { isEnabled: Boolean(config.auth.github) },
      },
      showLegalLinksOnAuthPage: config.auth.showLegalLinks,
      isEmailVerificationRequired: config.auth.isEmailVerificationRequired,
      isRegistrationEnabled: config.auth.isRegistrationEnabled,
      isPasswordResetEnabled: config.auth.isPasswordResetEnabled,
    },
    baseUrl: config.baseUrl,
    emailCallbacks: { availableDomains: config.emailDomains },
  };
}
