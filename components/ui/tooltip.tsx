"use client";

import { Tooltip as TooltipPrimitive } from "radix-ui";
import * as React from "react";

import { after, slot } from "@/components/ui/slot";

/** True when a TooltipProvider from this module is mounted above. */
const HasTooltipProviderContext = React.createContext(false);

function TooltipProvider({
  delayDuration = 700,
  skipDelayDuration = 300,
  ...props
}: React.ComponentProps<typeof TooltipPrimitive.Provider>) {
  return (
    <HasTooltipProviderContext.Provider value={true}>
      <TooltipPrimitive.Provider
        data-slot="tooltip-provider"
        delayDuration={delayDuration}
        skipDelayDuration={skipDelayDuration}
        {...props}
      />
    </HasTooltipProviderContext.Provider>
  );
}

function Tooltip({ ...props }: React.ComponentProps<typeof TooltipPrimitive.Root>) {
  const hasProvider = React.useContext(HasTooltipProviderContext);
  const root = <TooltipPrimitive.Root data-slot="tooltip" {...props} />;

  // Reuse an app-level provider when present so skipDelayDuration works across
  // tooltips; fall back to a local one so a standalone Tooltip never throws.
  return hasProvider ? root : <TooltipProvider>{root}</TooltipProvider>;
}

const TooltipTrigger = slot(TooltipPrimitive.Trigger, "tooltip-trigger");

const TooltipPopup = slot(
  TooltipPrimitive.Content,
  "tooltip-content",
  "z-50 w-fit origin-(--radix-tooltip-content-transform-origin) animate-in rounded-md bg-foreground px-3 py-1.5 text-xs text-balance text-background fade-in-0 zoom-in-95 data-[side=bottom]:slide-in-from-top-2 data-[side=left]:slide-in-from-right-2 data-[side=right]:slide-in-from-left-2 data-[side=top]:slide-in-from-bottom-2 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95",
  after(
    <TooltipPrimitive.Arrow className="z-50 size-2.5 translate-y-[calc(-50%_-_2px)] rotate-45 rounded-[2px] bg-foreground fill-foreground" />,
  ),
);

function TooltipContent({ sideOffset = 0, ...props }: React.ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPopup sideOffset={sideOffset} {...props} />
    </TooltipPrimitive.Portal>
  );
}

export { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger };
