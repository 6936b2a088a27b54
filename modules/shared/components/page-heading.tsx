// The top of a page: an optional "back" link, the page's h1 (or its own heading block) and a
// short description under it.
import { ArrowLeftIcon } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";

export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Button variant="ghost" size="sm" asChild className="-ml-3">
      <Link href={href}>
        <ArrowLeftIcon aria-hidden />
        {children}
      </Link>
    </Button>
  );
}

export function PageHeading({
  back,
  title,
  description,
  children,
}: {
  back?: { href: string; label: string };
  title?: string;
  description?: ReactNode;
  /** A heading block of the page's own, in place of `title` and `description`. */
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-start gap-2">
      {back ? <BackLink href={back.href}>{back.label}</BackLink> : null}
      {title ? <h1 className="text-2xl font-semibold tracking-tight">{title}</h1> : null}
      {description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
      {children}
    </div>
  );
}
