// biome-ignore-all lint/correctness/noComponentHookFactories: the factory runs once per dialog kind at module scope (dialog.tsx, alert-dialog.tsx), never during a render
"use client";
import { Slot } from "radix-ui";
// The parts shared by dialog.tsx and alert-dialog.tsx: Radix's (alert) dialog code loads when a
// dialog is first opened, not with the page. A closed dialog renders nothing, so it has nothing to
// render until then; a dialog opened by its `open` prop appears once the code has loaded; a trigger
// pressed before then is pressed again on Radix's trigger once it has.
import * as React from "react";

import {
  composeEventHandlers,
  composeRefs,
  createLazyModule,
  createLoaderContext,
  preloadLazyModule,
  useDormantRoot,
} from "@/components/ui/lazy-primitive";
import { lazySlot, slot } from "@/components/ui/slot";

/** What both Radix dialogs offer that the shared parts use. */
type DialogLikePrimitive = {
  Root: React.ComponentType<{ open?: boolean; defaultOpen?: boolean; children?: React.ReactNode }>;
  Trigger: React.ComponentType<React.ComponentProps<"button"> & { asChild?: boolean }>;
  Portal: React.ComponentType<{ children?: React.ReactNode }>;
  Overlay: React.ElementType;
  Content: React.ElementType;
  Description: React.ElementType;
};

type DialogLoader<P> = {
  /** The loaded Radix dialog, or null while the dialog has never been opened. */
  Primitive: P | null;
  /** The trigger was pressed before Radix had loaded: load it, then press Radix's trigger. */
  wakeByTrigger: () => void;
  takePendingPress: () => boolean;
  triggerRef: React.RefObject<HTMLElement | null>;
};

/**
 * A lazily loaded Radix dialog: its Root, Trigger and the parts both dialogs share, and hooks for
 * the other parts (`useLoader` while it may not have loaded, `usePrimitive` inside an open dialog).
 * `name` is the root component's name in error messages, `slot` its data-slot.
 */
export function createLazyDialog<P extends DialogLikePrimitive>({
  load,
  name,
  slot: rootSlot,
}: {
  load: () => Promise<P>;
  name: string;
  slot: string;
}) {
  const lazyModule = createLazyModule(load);
  const { Provider: LoaderProvider, useLoader, usePrimitive } = createLoaderContext<DialogLoader<P>>(name);

  function Root(props: React.ComponentProps<P["Root"]>) {
    const { Primitive, triggerRef, wakeWith, takeHandOver } = useDormantRoot(lazyModule, props, false);
    const loader = React.useMemo<DialogLoader<P>>(
      () => ({ Primitive, wakeByTrigger: () => wakeWith(true), takePendingPress: takeHandOver, triggerRef }),
      [Primitive, wakeWith, takeHandOver, triggerRef],
    );
    return (
      <LoaderProvider value={loader}>
        {Primitive ? <Primitive.Root data-slot={rootSlot} {...props} /> : props.children}
      </LoaderProvider>
    );
  }

  /** The trigger before Radix has loaded: a closed Radix trigger's markup; hover or focus loads Radix. */
  function DormantTrigger({ asChild, ref, onPointerEnter, onFocus, onClick, ...props }: React.ComponentProps<P["Trigger"]>) {
    const loader = useLoader(`${name}Trigger`);
    const Component = asChild ? Slot.Root : "button";
    return (
      <Component
        data-slot={`${rootSlot}-trigger`}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={false}
        data-state="closed"
        {...props}
        ref={composeRefs(ref, loader.triggerRef)}
        onPointerEnter={composeEventHandlers(onPointerEnter, () => preloadLazyModule(lazyModule))}
        onFocus={composeEventHandlers(onFocus, () => preloadLazyModule(lazyModule))}
        onClick={composeEventHandlers(onClick, () => loader.wakeByTrigger())}
      />
    );
  }

  /** Radix's trigger; on its first mount it presses itself if the dormant one had been pressed. */
  function LoadedTrigger({ ref, ...props }: React.ComponentProps<P["Trigger"]>) {
    const loader = useLoader(`${name}Trigger`);
    const Primitive = usePrimitive(`${name}Trigger`);
    React.useEffect(() => {
      if (!loader.takePendingPress()) return;
      loader.triggerRef.current?.focus();
      loader.triggerRef.current?.click();
    }, [loader]);
    return <Primitive.Trigger data-slot={`${rootSlot}-trigger`} {...props} ref={composeRefs(ref, loader.triggerRef)} />;
  }

  function Trigger(props: React.ComponentProps<P["Trigger"]>) {
    const { Primitive } = useLoader(`${name}Trigger`);
    return Primitive ? <LoadedTrigger {...props} /> : <DormantTrigger {...props} />;
  }

  /** Radix's dialog once it has loaded, else null: for the parts that render nothing until then. */
  function useLoadedPrimitive(part: string): P | null {
    return useLoader(part).Primitive;
  }

  const Portal = lazySlot(useLoadedPrimitive, "Portal", `${rootSlot}-portal`);

  const Overlay = lazySlot(
    useLoadedPrimitive,
    "Overlay",
    `${rootSlot}-overlay`,
    "fixed inset-0 z-50 bg-black/50 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=open]:animate-in data-[state=open]:fade-in-0",
  );

  const Popup = lazySlot(
    usePrimitive,
    "Content",
    `${rootSlot}-content`,
    "fixed top-[50%] left-[50%] z-50 grid w-full max-w-[calc(100%-2rem)] translate-x-[-50%] translate-y-[-50%] gap-4 rounded-lg border bg-background p-6 shadow-lg duration-200 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95 sm:max-w-lg",
  );

  // Here P's portal and overlay are known only as components; Content passes them no props.
  const PortalElement: React.ElementType = Portal;
  const OverlayElement: React.ElementType = Overlay;

  /** Radix's content over the overlay, in a portal. */
  function Content(props: React.ComponentProps<typeof Popup>) {
    const { Primitive } = useLoader(`${name}Content`);
    // A dialog that has never been opened is closed, and Radix renders nothing for a closed dialog.
    if (!Primitive) return null;
    return (
      <PortalElement>
        <OverlayElement />
        <Popup {...props} />
      </PortalElement>
    );
  }

  return {
    Root,
    Trigger,
    Portal,
    Overlay,
    Content,
    Header: slot("div", `${rootSlot}-header`, "flex flex-col gap-2 text-center sm:text-left"),
    Footer: slot("div", `${rootSlot}-footer`, "flex flex-col-reverse gap-2 sm:flex-row sm:justify-end"),
    Description: lazySlot(usePrimitive, "Description", `${rootSlot}-description`, "text-sm text-muted-foreground"),
    useLoader,
    usePrimitive,
  };
}
