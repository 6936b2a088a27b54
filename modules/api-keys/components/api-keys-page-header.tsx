// The API key pages' header: a back button, the title, and optionally a description and an action.
import type { ReactNode } from "react";
import { PageHeading } from "@/modules/shared/components/page-heading";

export function ApiKeysPageHeader({
  backHref,
  backLabel,
  title,
  description,
  action,
}: {
  backHref: string;
  backLabel: string;
  title: string;
  description?: string;
  action?: ReactNode;
}) {
  return (
    <PageHeading back={{ href: backHref, label: backLabel }}>
      <div className="flex w-full flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          {description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
        </div>
        {action ? <div className="shrink-0">{action}</div> : null}
      </div>
    </PageHeading>
  );
}
