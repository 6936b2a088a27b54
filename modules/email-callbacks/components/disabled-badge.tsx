"use client";
// The "Disabled" badge of an email callback that is switched off, explained by its tooltip (the
// browser's own, `title`: docs/architecture.md, Decisions and their reasons: page weight).
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";

export function DisabledBadge() {
  const t = useTranslations("emailCallbacks.disabledBadge");
  return (
    <Badge variant="secondary" tabIndex={0} className="cursor-default" title={t("tooltip")}>
      {t("label")}
    </Badge>
  );
}
