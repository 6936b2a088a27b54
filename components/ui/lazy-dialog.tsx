// biome-ignore-all lint/correctness/noComponentHookFactories: the factory runs once per dialog kind at module scope (dialog.tsx, alert-dialog.tsx), never during a render
"use client";
import { Slot } from "radix-ui";
// The lazy root and trigger shared by dialog.tsx and alert-dialog.tsx: Radix's (alert) dialog code
// loads when a dialog is first opened, not with the page. A closed dialog renders nothing, so it
// has nothing to render until then; a dialog opened by its `open` prop appears once the code has
// loaded; a trigger pressed before then is pressed again on Radix's trigger once it has.
import * as React from "react";

import {
  composeEventHandlers,
  composeRefs,
  createLazyModule,
  preloadLazyModule,
  useLazyModule,
} from "@/components/ui/lazy-primitive";

/** What both Radix dialogs offer that the lazy root and trigger use. */
type DialogLikePrimitive = {
  Root: React.ComponentType<{ open?: boolean; defaultOpen?: boolean; children?: React.ReactNode }>;
  Trigger: React.ComponentType<React.ComponentProps<"button"> & { asChild?: boolean }>;
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
 * A lazily loaded Radix dialog: its Root and Trigger, and hooks for the other parts (`useLoader`
 * while it may not have loaded, `usePrimitive` inside an open dialog). `name` is the root
 * component's name in error messages, `slot` its data-slot.
 */
export function createLazyDialog<P extends DialogLikePrimitive>({
  load,
  name,
  slot,
}: {
  load: () => Promise<P>;
  name: string;
  slot: string;
}) {
  const lazyModule = createLazyModule(load);
  const LoaderContext = React.createContext<DialogLoader<P> | null>(null);

  function useLoader(part: string): DialogLoader<P> {
    const loader = React.useContext(LoaderContext);
    if (!loader) throw new Error(`<${part}> must be used within <${name}>`);
    return loader;
  }

  /** Radix's dialog, for the parts that only render inside an open dialog. */
  function usePrimitive(part: string): P {
    const { Primitive } = useLoader(part);
    if (!Primitive) throw new Error(`<${part}> must be used within <${name}Content>`);
    return Primitive;
  }

  function Root(props: React.ComponentProps<P["Root"]>) {
    const [isTriggered, setIsTriggered] = React.useState(false);
    const Primitive = useLazyModule(lazyModule, isTriggered || props.open === true || props.defaultOpen === true);
    const triggerRef = React.useRef<HTMLElement | null>(null);
    const pendingPressRef = React.useRef(false);
    const loader = React.useMemo<DialogLoader<P>>(
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
      <LoaderContext.Provider value={loader}>
        {Primitive ? <Primitive.Root data-slot={slot} {...props} /> : props.children}
      </LoaderContext.Provider>
    );
  }

  /** The trigger before Radix has loaded: a closed Radix trigger's markup; hover or focus loads Radix. */
  function DormantTrigger({ asChild, ref, onPointerEnter, onFocus, onClick, ...props }: React.ComponentProps<P["Trigger"]>) {
    const loader = useLoader(`${name}Trigger`);
    const Component = asChild ? Slot.Root : "button";
    return (
      <Component
        data-slot={`${slot}-trigger`}
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
    return <Primitive.Trigger data-slot={`${slot}-trigger`} {...props} ref={composeRefs(ref, loader.triggerRef)} />;
  }

  function Trigger(props: React.ComponentProps<P["Trigger"]>) {
    const { Primitive } = useLoader(`${name}Trigger`);
    return Primitive ? <LoadedTrigger {...props} /> : <DormantTrigger {...props} />;
  }

  return { Root, Trigger, useLoader, usePrimitive };
}
