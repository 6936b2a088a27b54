"use client";

// Radix's dialog code (focus trap, scroll lock, dismissal) is loaded when a dialog is first opened,
// not with the page (lazy-dialog.tsx): a closed dialog renders nothing until then.

import { XIcon } from "lucide-react";
import type { Dialog as DialogPrimitiveTypes } from "radix-ui";
import type * as React from "react";

import { createLazyDialog } from "@/components/ui/lazy-dialog";
import { cn } from "@/modules/shared/cn";

type DialogPrimitive = typeof DialogPrimitiveTypes;

const {
  Root: Dialog,
  Trigger: DialogTrigger,
  useLoader: useDialogLoader,
  usePrimitive: useDialogPrimitive,
} = createLazyDialog({
  load: () => import("./dialog-primitive").then((module) => module.DialogPrimitive),
  name: "Dialog",
  slot: "dialog",
});

function DialogPortal({ ...props }: React.ComponentProps<DialogPrimitive["Portal"]>) {
  const { Primitive } = useDialogLoader("DialogPortal");
  return Primitive ? <Primitive.Portal data-slot="dialog-portal" {...props} /> : null;
}

function DialogClose({ ...props }: React.ComponentProps<DialogPrimitive["Close"]>) {
  const Primitive = useDialogPrimitive("DialogClose");
  return <Primitive.Close data-slot="dialog-close" {...props} />;
}

function DialogOverlay({ className, ...props }: React.ComponentProps<DialogPrimitive["Overlay"]>) {
  const { Primitive } = useDialogLoader("DialogOverlay");
  if (!Primitive) return null;
  return (
    <Primitive.Overlay
      data-slot="dialog-overlay"
      className={cn(
        "fixed inset-0 z-50 bg-black/50 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=open]:animate-in data-[state=open]:fade-in-0",
        className,
      )}
      {...props}
    />
  );
}

function DialogContent({
  className,
  children,
  showCloseButton = true,
  closeLabel = "Close",
  ...props
}: React.ComponentProps<DialogPrimitive["Content"]> & {
  showCloseButton?: boolean;
  /** Screen-reader text of the close (X) button; pass a translated string. */
  closeLabel?: string;
}) {
  const { Primitive } = useDialogLoader("DialogContent");
  // A dialog that has never been opened is closed, and Radix renders nothing for a closed dialog.
  if (!Primitive) return null;
  return (
    <DialogPortal data-slot="dialog-portal">
      <DialogOverlay />
      <Primitive.Content
        data-slot="dialog-content"
        className={cn(
          "fixed top-[50%] left-[50%] z-50 grid w-full max-w-[calc(100%-2rem)] translate-x-[-50%] translate-y-[-50%] gap-4 rounded-lg border bg-background p-6 shadow-lg duration-200 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95 sm:max-w-lg",
          className,
        )}
        {...props}
      >
        {children}
        {showCloseButton && (
          <Primitive.Close
            data-slot="dialog-close"
            className="absolute top-4 right-4 rounded-xs opacity-70 ring-offset-background transition-opacity hover:opacity-100 focus:ring-2 focus:ring-ring focus:ring-offset-2 focus:outline-hidden disabled:pointer-events-none data-[state=open]:bg-accent data-[state=open]:text-muted-foreground [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4"
          >
            <XIcon aria-hidden="true" />
            <span className="sr-only">{closeLabel}</span>
          </Primitive.Close>
        )}
      </Primitive.Content>
    </DialogPortal>
  );
}

function DialogHeader({ className, ...props }: React.ComponentProps<"div">) {
  return <div data-slot="dialog-header" className={cn("flex flex-col gap-2 text-center sm:text-left", className)} {...props} />;
}

function DialogFooter({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="dialog-footer"
      className={cn("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)}
      {...props}
    />
  );
}

function DialogTitle({ className, ...props }: React.ComponentProps<DialogPrimitive["Title"]>) {
  const Primitive = useDialogPrimitive("DialogTitle");
  return <Primitive.Title data-slot="dialog-title" className={cn("text-lg leading-none font-semibold", className)} {...props} />;
}

function DialogDescription({ className, ...props }: React.ComponentProps<DialogPrimitive["Description"]>) {
  const Primitive = useDialogPrimitive("DialogDescription");
  return (
    <Primitive.Description data-slot="dialog-description" className={cn("text-sm text-muted-foreground", className)} {...props} />
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
