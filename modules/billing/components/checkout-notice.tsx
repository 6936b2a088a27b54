// The checkout pages' centred card: an icon, a title, an optional line and actions.
import type { ReactNode } from "react";
import { Card, CardContent } from "@/components/ui/card";

type CheckoutNoticeProps = { icon: ReactNode; title: string; description?: string; children?: ReactNode };

export function CheckoutNotice({ icon, title, description, children }: CheckoutNoticeProps) {
  return (
    <Card className="w-full max-w-md">
      <CardContent className="flex flex-col items-center gap-3 py-6 text-center" role="status" aria-live="polite">
        {icon}
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
        {children ? <div className="mt-2">{children}</div> : null}
      </CardContent>
    </Card>
  );
}
