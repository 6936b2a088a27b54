"use client";

// Radix's dialog code (focus trap, scroll lock, dismissal) is loaded when a dialog is first opened,
// not with the page (lazy-dialog.tsx): a closed dialog renders nothing until then.

import { XIcon } from "lucide-react";
import type { Dialog as DialogPrimitiveTypes } from "radix-ui";
import type * as React from "react";

import { createLazyDialog } from "@/components/ui/lazy-dialog";
import { lazySlot } from "@/components/ui/slot";

type DialogPrimitive = typeof DialogPrimitiveTypes;

const {
  Root: Dialog,
  Trigger: DialogTrigger,
  Portal: DialogPortal,
  Overlay: DialogOverlay,
  Content: LazyDialogContent,
  Header: DialogHeader,
  Footer: DialogFooter,
  Description: DialogDescription,
  usePrimitive: useDialogPrimitive,
} = createLazyDialog({
  load: () => import("./dialog-primitive").then((module) => module.DialogPrimitive),
  name: "Dialog",
  slot: "dialog",
});

const DialogClose = lazySlot(useDialogPrimitive, "Close", "dialog-close");

const DialogTitle = lazySlot(useDialogPrimitive, "Title", "dialog-title", "text-lg leading-none font-semibold");

function DialogContent({
  children,
  showCloseButton = true,
  closeLabel = "Close",
  ...props
}: React.ComponentProps<DialogPrimitive["Content"]> & {
  showCloseButton?: boolean;
  /** Screen-reader text of the close (X) button; pass a translated string. */
  closeLabel?: string;
}) {
  return (
    <LazyDialogContent {...props}>
      {children}
      {showCloseButton && (
        <DialogClose className="absolute top-4 right-4 rounded-xs opacity-70 ring-offset-background transition-opacity hover:opacity-100 focus:ring-2 focus:ring-ring focus:ring-offset-2 focus:outline-hidden disabled:pointer-events-none data-[state=open]:bg-accent data-[state=open]:text-muted-foreground [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4">
          <XIcon aria-hidden="true" />
          <span className="sr-only">{closeLabel}</span>
        </DialogClose>
      )}
    </LazyDialogContent>
  );
}

export {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogOverlay,
  DialogPortal,
  DialogTitle,
  DialogTrigger,
};
