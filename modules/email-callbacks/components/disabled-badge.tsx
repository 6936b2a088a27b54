"use client";
// The "Disabled" badge of an email callback that is switched off, explained by its tooltip.
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";

export function DisabledBadge() {
  const t = useTranslations("emailCallbacks.disabledBadge");
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Badge variant="secondary" tabIndex={0} className="cursor-default">
          {t("label")}
        </Badge>
      </TooltipTrigger>
      <TooltipContent className="max-w-xs">{t("tooltip")}</TooltipContent>
    </Tooltip>
  );
}
