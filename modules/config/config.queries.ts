// Query keys and fetchers of the instance configuration.
import { apiFetch } from "@/modules/shared/api/api-client";
import type { PublicConfig } from "./config.models";

export const configQueryKeys = {
  all: ["config"] as const,
};

/** What the client assumes until the server says otherwise; the server's config is merged over it. */
export const DEFAULT_PUBLIC_CONFIG: PublicConfig = {
  auth: {
    providers: { google: { isEnabled: false }, github: { isEnabled: false } },
    showLegalLinksOnAuthPage: true,
    legalLinks: { termsUrl: null, privacyUrl: null },
    isEmailVerificationRequired: false,
    isRegistrationEnabled: true,
    isPasswordResetEnabled: true,
  },
  baseUrl: "",
  emailCallbacks: { availableDomains: [] },
};

export async function fetchPublicConfig(): Promise<PublicConfig> {
  const config = await apiFetch<Partial<PublicConfig>>("/api/config");
  return {
    ...DEFAULT_PUBLIC_CONFIG,
    ...config,
    auth: {
      ...DEFAULT_PUBLIC_CONFIG.auth,
      ...config.auth,
      providers: { ...DEFAULT_PUBLIC_CONFIG.auth.providers, ...config.auth?.providers },
      legalLinks: { ...DEFAULT_PUBLIC_CONFIG.auth.legalLinks, ...config.auth?.legalLinks },
    },
    emailCallbacks: { ...DEFAULT_PUBLIC_CONFIG.emailCallbacks, ...config.emailCallbacks },
  };
}
