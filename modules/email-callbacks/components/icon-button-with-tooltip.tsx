"use client";
// An icon-only button whose label is both its accessible name and its tooltip (the browser's own,
// `title`: docs/architecture.md, Decisions and their reasons: page weight).
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";

export function IconButtonWithTooltip({
  label,
  variant = "outline",
  onClick,
  children,
}: {
  label: string;
  variant?: "outline" | "ghost";
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button type="button" variant={variant} size="icon" aria-label={label} title={label} onClick={onClick} className="shrink-0">
      {children}
    </Button>
  );
}
