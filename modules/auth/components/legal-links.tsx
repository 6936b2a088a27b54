"use client";
// The terms of service and privacy policy links under the auth cards, when the instance shows them.
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { useAppConfig } from "@/modules/config/components/config-provider";
import { LEGAL_LINKS } from "../auth.constants";

export function LegalLinks() {
  const t = useTranslations("legalLinks");
  const config = useAppConfig();
  if (!config.auth.showLegalLinksOnAuthPage) return null;

  const link = (href: string) => (chunks: ReactNode) => (
    <a href={href} target="_blank" rel="noopener noreferrer" className="hover:text-foreground underline underline-offset-4">
      {chunks}
    </a>
  );
  return (
    <p className="text-muted-foreground px-6 text-center text-xs text-balance">
      {t.rich("agreement", { terms: link(LEGAL_LINKS.termsOfService), privacy: link(LEGAL_LINKS.privacyPolicy) })}
    </p>
  );
}
