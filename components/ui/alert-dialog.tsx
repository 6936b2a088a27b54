"use client";

// Radix's alert dialog code (focus trap, scroll lock) is loaded when an alert dialog is first
// opened, not with the page, as in dialog.tsx: a closed alert dialog renders nothing until then.

import type { AlertDialog as AlertDialogPrimitiveTypes } from "radix-ui";
import type * as React from "react";
import { type Button, buttonVariants } from "@/components/ui/button";
import { createLazyDialog } from "@/components/ui/lazy-dialog";
import { lazySlot } from "@/components/ui/slot";
import { cn } from "@/modules/shared/cn";

type AlertDialogPrimitive = typeof AlertDialogPrimitiveTypes;

type AlertDialogButtonProps = React.ComponentProps<AlertDialogPrimitive["Action" | "Cancel"]> &
  Pick<React.ComponentProps<typeof Button>, "variant" | "size">;

const {
  Root: AlertDialog,
  Trigger: AlertDialogTrigger,
  Portal: AlertDialogPortal,
  Overlay: AlertDialogOverlay,
  Content: AlertDialogContent,
  Header: AlertDialogHeader,
  Footer: AlertDialogFooter,
  Description: AlertDialogDescription,
  usePrimitive: useAlertDialogPrimitive,
} = createLazyDialog({
  load: () => import("./dialog-primitive").then((module) => module.AlertDialogPrimitive),
  name: "AlertDialog",
  slot: "alert-dialog",
});

const AlertDialogTitle = lazySlot(useAlertDialogPrimitive, "Title", "alert-dialog-title", "text-lg font-semibold");

/** Radix's action or cancel button, styled as a Button. */
function AlertDialogButton({
  kind,
  className,
  variant,
  size = "default",
  ...props
}: AlertDialogButtonProps & { kind: "Action" | "Cancel" }) {
  const Part = useAlertDialogPrimitive(`AlertDialog${kind}`)[kind];
  return (
    <Part
      data-slot={`alert-dialog-${kind.toLowerCase()}`}
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    />
  );
}

function AlertDialogAction({ variant = "default", ...props }: AlertDialogButtonProps) {
  return <AlertDialogButton kind="Action" variant={variant} {...props} />;
}

function AlertDialogCancel({ variant = "outline", ...props }: AlertDialogButtonProps) {
  return <AlertDialogButton kind="Cancel" variant={variant} {...props} />;
}

export {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogOverlay,
  AlertDialogPortal,
  AlertDialogTitle,
  AlertDialogTrigger,
};
