"use client";
// An icon-only button whose label is both its accessible name and its tooltip.
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";

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
    <Tooltip>
      <TooltipTrigger asChild>
        <Button type="button" variant={variant} size="icon" aria-label={label} onClick={onClick} className="shrink-0">
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}
