// A dashed panel saying there is nothing here yet (or no such thing), with an icon, a heading, a
// line of explanation and what to do next.
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

export function EmptyState({
  icon: Icon,
  title,
  description,
  headingLevel = 1,
  action,
}: {
  icon: LucideIcon;
  title: string;
  description: ReactNode;
  /** 1 when the panel is all the page shows; 2 inside a page with its own h1. */
  headingLevel?: 1 | 2;
  action?: ReactNode;
}) {
  const heading =
    headingLevel === 1 ? (
      <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
    ) : (
      <h2 className="text-lg font-semibold tracking-tight">{title}</h2>
    );
  return (
    <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed px-6 py-16 text-center">
      <div className="bg-muted flex size-12 items-center justify-center rounded-full">
        <Icon aria-hidden className="text-muted-foreground size-6" />
      </div>
      <div className="flex max-w-md flex-col gap-1">
        {heading}
        <p className="text-muted-foreground text-sm">{description}</p>
      </div>
      {action}
    </div>
  );
}
