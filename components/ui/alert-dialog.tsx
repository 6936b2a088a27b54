"use client";

// Radix's alert dialog code (focus trap, scroll lock) is loaded when an alert dialog is first
// opened, not with the page, as in dialog.tsx: a closed alert dialog renders nothing until then.

import type { AlertDialog as AlertDialogPrimitiveTypes } from "radix-ui";
import type * as React from "react";
import { type Button, buttonVariants } from "@/components/ui/button";
import { createLazyDialog } from "@/components/ui/lazy-dialog";
import { cn } from "@/modules/shared/cn";

type ButtonStyleProps = Pick<React.ComponentProps<typeof Button>, "variant" | "size">;

type AlertDialogPrimitive = typeof AlertDialogPrimitiveTypes;

const {
  Root: AlertDialog,
  Trigger: AlertDialogTrigger,
  useLoader: useAlertDialogLoader,
  usePrimitive: useAlertDialogPrimitive,
} = createLazyDialog({
  load: () => import("./dialog-primitive").then((module) => module.AlertDialogPrimitive),
  name: "AlertDialog",
  slot: "alert-dialog",
});

function AlertDialogPortal({ ...props }: React.ComponentProps<AlertDialogPrimitive["Portal"]>) {
  const { Primitive } = useAlertDialogLoader("AlertDialogPortal");
  return Primitive ? <Primitive.Portal data-slot="alert-dialog-portal" {...props} /> : null;
}

function AlertDialogOverlay({ className, ...props }: React.ComponentProps<AlertDialogPrimitive["Overlay"]>) {
  const { Primitive } = useAlertDialogLoader("AlertDialogOverlay");
  if (!Primitive) return null;
  return (
    <Primitive.Overlay
      data-slot="alert-dialog-overlay"
      className={cn(
        "fixed inset-0 z-50 bg-black/50 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=open]:animate-in data-[state=open]:fade-in-0",
        className,
      )}
      {...props}
    />
  );
}

function AlertDialogContent({ className, ...props }: React.ComponentProps<AlertDialogPrimitive["Content"]>) {
  const { Primitive } = useAlertDialogLoader("AlertDialogContent");
  // A dialog that has never been opened is closed, and Radix renders nothing for a closed dialog.
  if (!Primitive) return null;
  return (
    <AlertDialogPortal>
      <AlertDialogOverlay />
      <Primitive.Content
        data-slot="alert-dialog-content"
        className={cn(
          "fixed top-[50%] left-[50%] z-50 grid w-full max-w-[calc(100%-2rem)] translate-x-[-50%] translate-y-[-50%] gap-4 rounded-lg border bg-background p-6 shadow-lg duration-200 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95 sm:max-w-lg",
          className,
        )}
        {...props}
      />
    </AlertDialogPortal>
  );
}

function AlertDialogHeader({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div data-slot="alert-dialog-header" className={cn("flex flex-col gap-2 text-center sm:text-left", className)} {...props} />
  );
}

function AlertDialogFooter({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="alert-dialog-footer"
      className={cn("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)}
      {...props}
    />
  );
}

function AlertDialogTitle({ className, ...props }: React.ComponentProps<AlertDialogPrimitive["Title"]>) {
  const Primitive = useAlertDialogPrimitive("AlertDialogTitle");
  return <Primitive.Title data-slot="alert-dialog-title" className={cn("text-lg font-semibold", className)} {...props} />;
}

function AlertDialogDescription({ className, ...props }: React.ComponentProps<AlertDialogPrimitive["Description"]>) {
  const Primitive = useAlertDialogPrimitive("AlertDialogDescription");
  return (
    <Primitive.Description
      data-slot="alert-dialog-description"
      className={cn("text-sm text-muted-foreground", className)}
      {...props}
    />
  );
}

function AlertDialogAction({
  className,
  variant = "default",
  size = "default",
  ...props
}: React.ComponentProps<AlertDialogPrimitive["Action"]> & ButtonStyleProps) {
  const Primitive = useAlertDialogPrimitive("AlertDialogAction");
  return (
    <Primitive.Action data-slot="alert-dialog-action" className={cn(buttonVariants({ variant, size }), className)} {...props} />
  );
}

function AlertDialogCancel({
  className,
  variant = "outline",
  size = "default",
  ...props
}: React.ComponentProps<AlertDialogPrimitive["Cancel"]> & ButtonStyleProps) {
  const Primitive = useAlertDialogPrimitive("AlertDialogCancel");
  return (
    <Primitive.Cancel data-slot="alert-dialog-cancel" className={cn(buttonVariants({ variant, size }), className)} {...props} />
  );
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
