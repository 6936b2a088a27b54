"use client";
// Radix's alert dialog code (focus trap, scroll lock) is loaded when an alert dialog is first
// opened, not with the page, as in dialog.tsx: a closed alert dialog renders nothing until then.

import * as React from "react";
import { Slot, type AlertDialog as AlertDialogPrimitiveTypes } from "radix-ui";

import { cn } from "@/modules/shared/cn";
import { buttonVariants, type Button } from "@/components/ui/button";
import {
  composeEventHandlers,
  composeRefs,
  createLazyModule,
  preloadLazyModule,
  useLazyModule,
} from "@/components/ui/lazy-primitive";

type ButtonStyleProps = Pick<React.ComponentProps<typeof Button>, "variant" | "size">;

type AlertDialogPrimitive = typeof AlertDialogPrimitiveTypes;

const alertDialogModule = createLazyModule(() =>
  import("./dialog-primitive").then((module) => module.AlertDialogPrimitive),
);

type AlertDialogLoader = {
  /** The loaded Radix alert dialog, or null while the dialog has never been opened. */
  Primitive: AlertDialogPrimitive | null;
  /** The trigger was pressed before Radix had loaded: load it, then press Radix's trigger. */
  wakeByTrigger: () => void;
  takePendingPress: () => boolean;
  triggerRef: React.RefObject<HTMLElement | null>;
};

const AlertDialogLoaderContext = React.createContext<AlertDialogLoader | null>(null);

function useAlertDialogLoader(part: string): AlertDialogLoader {
  const loader = React.useContext(AlertDialogLoaderContext);
  if (!loader) throw new Error(`<${part}> must be used within <AlertDialog>`);
  return loader;
}

/** Radix's alert dialog, for the parts that only render inside an open dialog. */
function useAlertDialogPrimitive(part: string): AlertDialogPrimitive {
  const { Primitive } = useAlertDialogLoader(part);
  if (!Primitive) throw new Error(`<${part}> must be used within <AlertDialogContent>`);
  return Primitive;
}

function AlertDialog({ ...props }: React.ComponentProps<AlertDialogPrimitive["Root"]>) {
  const [isTriggered, setIsTriggered] = React.useState(false);
  const Primitive = useLazyModule(alertDialogModule, isTriggered || props.open === true || props.defaultOpen === true);
  const triggerRef = React.useRef<HTMLElement | null>(null);
  const pendingPressRef = React.useRef(false);
  const loader = React.useMemo<AlertDialogLoader>(
    () => ({
      Primitive,
      wakeByTrigger() {
        pendingPressRef.current = true;
        setIsTriggered(true);
      },
      takePendingPress() {
        const isPending = pendingPressRef.current;
        pendingPressRef.current = false;
        return isPending;
      },
      triggerRef,
    }),
    [Primitive],
  );
  return (
    <AlertDialogLoaderContext.Provider value={loader}>
      {Primitive ? <Primitive.Root data-slot="alert-dialog" {...props} /> : props.children}
    </AlertDialogLoaderContext.Provider>
  );
}

function AlertDialogTrigger({
  ...props
}: React.ComponentProps<AlertDialogPrimitive["Trigger"]>) {
  const { Primitive } = useAlertDialogLoader("AlertDialogTrigger");
  return Primitive ? <LoadedAlertDialogTrigger {...props} /> : <DormantAlertDialogTrigger {...props} />;
}

/** The trigger before Radix has loaded: a closed Radix trigger's markup; hover or focus loads Radix. */
function DormantAlertDialogTrigger({
  asChild,
  ref,
  onPointerEnter,
  onFocus,
  onClick,
  ...props
}: React.ComponentProps<AlertDialogPrimitive["Trigger"]>) {
  const loader = useAlertDialogLoader("AlertDialogTrigger");
  const Component = asChild ? Slot.Root : "button";
  return (
    <Component
      data-slot="alert-dialog-trigger"
      type="button"
      aria-haspopup="dialog"
      aria-expanded={false}
      data-state="closed"
      {...props}
      ref={composeRefs(ref, loader.triggerRef)}
      onPointerEnter={composeEventHandlers(onPointerEnter, () => preloadLazyModule(alertDialogModule))}
      onFocus={composeEventHandlers(onFocus, () => preloadLazyModule(alertDialogModule))}
      onClick={composeEventHandlers(onClick, () => loader.wakeByTrigger())}
    />
  );
}

/** Radix's trigger; on its first mount it presses itself if the dormant one had been pressed. */
function LoadedAlertDialogTrigger({ ref, ...props }: React.ComponentProps<AlertDialogPrimitive["Trigger"]>) {
  const loader = useAlertDialogLoader("AlertDialogTrigger");
  const Primitive = useAlertDialogPrimitive("AlertDialogTrigger");
  React.useEffect(() => {
    if (!loader.takePendingPress()) return;
    loader.triggerRef.current?.focus();
    loader.triggerRef.current?.click();
  }, [loader]);
  return <Primitive.Trigger data-slot="alert-dialog-trigger" {...props} ref={composeRefs(ref, loader.triggerRef)} />;
}

function AlertDialogPortal({ ...props }: React.ComponentProps<AlertDialogPrimitive["Portal"]>) {
  const { Primitive } = useAlertDialogLoader("AlertDialogPortal");
  return Primitive ? <Primitive.Portal data-slot="alert-dialog-portal" {...props} /> : null;
}

function AlertDialogOverlay({
  className,
  ...props
}: React.ComponentProps<AlertDialogPrimitive["Overlay"]>) {
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

function AlertDialogContent({
  className,
  ...props
}: React.ComponentProps<AlertDialogPrimitive["Content"]>) {
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
    <div
      data-slot="alert-dialog-header"
      className={cn("flex flex-col gap-2 text-center sm:text-left", className)}
      {...props}
    />
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

function AlertDialogTitle({
  className,
  ...props
}: React.ComponentProps<AlertDialogPrimitive["Title"]>) {
  const Primitive = useAlertDialogPrimitive("AlertDialogTitle");
  return (
    <Primitive.Title
      data-slot="alert-dialog-title"
      className={cn("text-lg font-semibold", className)}
      {...props}
    />
  );
}

function AlertDialogDescription({
  className,
  ...props
}: React.ComponentProps<AlertDialogPrimitive["Description"]>) {
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
    <Primitive.Action
      data-slot="alert-dialog-action"
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    />
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
    <Primitive.Cancel
      data-slot="alert-dialog-cancel"
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    />
  );
}

export {
  AlertDialog,
  AlertDialogPortal,
  AlertDialogOverlay,
  AlertDialogTrigger,
  AlertDialogContent,
  AlertDialogHeader,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogDescription,
  AlertDialogAction,
  AlertDialogCancel,
};
