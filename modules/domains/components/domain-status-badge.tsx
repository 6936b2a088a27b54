// A domain's status as a badge: verified in green, failing in red, pending in grey.
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import { DOMAIN_STATUS, type DomainStatus } from "../domains.constants";

const VARIANTS = {
  [DOMAIN_STATUS.PENDING]: "secondary",
  [DOMAIN_STATUS.VERIFIED]: "success",
  [DOMAIN_STATUS.FAILING]: "destructive",
} as const;

export function DomainStatusBadge({ status }: { status: DomainStatus }) {
  const t = useTranslations("domains.status");
  const labels = { pending: t("pending"), verified: t("verified"), failing: t("failing") };
  return <Badge variant={VARIANTS[status]}>{labels[status]}</Badge>;
}
