"use client";
// The instance's terms of service and privacy policy links under the auth cards: each one the
// operator set (TERMS_URL, PRIVACY_URL), none when the instance hides them.
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { useAppConfig } from "@/modules/config/components/config-provider";

export function LegalLinks() {
  const t = useTranslations("legalLinks");
  const { showLegalLinksOnAuthPage, legalLinks } = useAppConfig().auth;
  const { termsUrl, privacyUrl } = legalLinks;
  if (!showLegalLinksOnAuthPage || !(termsUrl || privacyUrl)) return null;

  const link = (href: string) => (chunks: ReactNode) => (
    <a href={href} target="_blank" rel="noopener noreferrer" className="hover:text-foreground underline underline-offset-4">
      {chunks}
    </a>
  );
  return (
    <p className="text-muted-foreground px-6 text-center text-xs text-balance">
      {termsUrl && privacyUrl
        ? t.rich("agreement", { terms: link(termsUrl), privacy: link(privacyUrl) })
        : termsUrl
          ? t.rich("agreementTerms", { terms: link(termsUrl) })
          : t.rich("agreementPrivacy", { privacy: link(privacyUrl!) })}
    </p>
  );
}
