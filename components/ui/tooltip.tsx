"use client";

// Radix's tooltip code (its positioning code is most of a page's tooltip weight) is loaded when a
// tooltip is about to show, not with the page. Until then the trigger renders as Radix renders a
// closed one, and the content renders nothing. Resting the pointer on the trigger for the delay, or
// focusing it from the keyboard, loads Radix, turns the tooltip into Radix's and opens it; a press
// cancels it (as it closes Radix's). The trigger's focus moves to Radix's trigger.

import { Slot, type Tooltip as TooltipPrimitiveTypes } from "radix-ui";
import * as React from "react";

import {
  composeEventHandlers,
  composeRefs,
  createLazyModule,
  createLoaderContext,
  hasFocus,
  preloadLazyModule,
  useDormantRoot,
} from "@/components/ui/lazy-primitive";
import { after, lazySlot } from "@/components/ui/slot";

type TooltipPrimitive = typeof TooltipPrimitiveTypes;

const tooltipModule = createLazyModule(() => import("./tooltip-primitive").then((module) => module.TooltipPrimitive));

type TooltipDelays = { delayDuration: number; skipDelayDuration: number };

const TooltipDelaysContext = React.createContext<TooltipDelays>({ delayDuration: 700, skipDelayDuration: 300 });

/** The delays of the tooltips below it: before one opens, and for how long after one closed the next opens at once. */
function TooltipProvider({
  delayDuration = 700,
  skipDelayDuration = 300,
  children,
}: Partial<TooltipDelays> & { children?: React.ReactNode }) {
  const delays = React.useMemo(() => ({ delayDuration, skipDelayDuration }), [delayDuration, skipDelayDuration]);
  return <TooltipDelaysContext.Provider value={delays}>{children}</TooltipDelaysContext.Provider>;
}

/**
 * While a tooltip is open, and for skipDelayDuration after the last one closed, the next one opens
 * without delay (what Radix's provider does across tooltips: each loaded tooltip has its own).
 */
const openTooltips = { count: 0, isSkipping: false, timer: undefined as ReturnType<typeof setTimeout> | undefined };
const skippingListeners = new Set<() => void>();

function setSkipping(isSkipping: boolean) {
  if (openTooltips.isSkipping === isSkipping) return;
  openTooltips.isSkipping = isSkipping;
  for (const listener of skippingListeners) listener();
}

function noteTooltipOpened() {
  clearTimeout(openTooltips.timer);
  openTooltips.count += 1;
  setSkipping(true);
}

function noteTooltipClosed(skipDelayDuration: number) {
  openTooltips.count = Math.max(0, openTooltips.count - 1);
  if (openTooltips.count > 0) return;
  clearTimeout(openTooltips.timer);
  openTooltips.timer = setTimeout(() => setSkipping(false), skipDelayDuration);
}

function subscribeToSkipping(listener: () => void) {
  skippingListeners.add(listener);
  return () => skippingListeners.delete(listener);
}

type TooltipLoader = {
  /** The loaded Radix tooltip, or null while the tooltip is dormant. */
  Primitive: TooltipPrimitive | null;
  /** Radix has loaded and the tooltip is to open: Radix's tooltip replaces the dormant one. */
  wake: () => void;
  /** Reads and clears whether the dormant trigger had the focus when Radix's replaced it. */
  takeHadFocus: () => boolean;
  triggerRef: React.RefObject<HTMLElement | null>;
};

const {
  Provider: TooltipLoaderProvider,
  useLoader: useTooltipLoader,
  /** Radix's tooltip, for the parts that only render inside an open tooltip (the content and below). */
  usePrimitive: useTooltipPrimitive,
} = createLoaderContext<TooltipLoader>("Tooltip");

function Tooltip({ children, ...props }: React.ComponentProps<TooltipPrimitive["Root"]>) {
  const { Primitive, isWoken, triggerRef, wakeWith, takeHandOver } = useDormantRoot(tooltipModule, props, false);
  const loader = React.useMemo<TooltipLoader>(
    () => ({ Primitive, wake: () => wakeWith(hasFocus(triggerRef)), takeHadFocus: takeHandOver, triggerRef }),
    [Primitive, wakeWith, takeHandOver, triggerRef],
  );

  return (
    <TooltipLoaderProvider value={loader}>
      {Primitive ? (
        // Woken by the dormant trigger: it opens as Radix's takes over.
        <LoadedTooltip Primitive={Primitive} defaultOpen={isWoken || undefined} {...props}>
          {children}
        </LoadedTooltip>
      ) : (
        children
      )}
    </TooltipLoaderProvider>
  );
}

function LoadedTooltip({
  Primitive,
  onOpenChange,
  ...props
}: React.ComponentProps<TooltipPrimitive["Root"]> & { Primitive: TooltipPrimitive }) {
  const { delayDuration, skipDelayDuration } = React.useContext(TooltipDelaysContext);
  const isSkipping = React.useSyncExternalStore(
    subscribeToSkipping,
    () => openTooltips.isSkipping,
    () => false,
  );
  const [isOpen, setIsOpen] = React.useState(props.open ?? props.defaultOpen ?? false);
  const isShown = props.open ?? isOpen;
  React.useEffect(() => {
    if (!isShown) return;
    noteTooltipOpened();
    return () => noteTooltipClosed(skipDelayDuration);
  }, [isShown, skipDelayDuration]);

  return (
    <Primitive.Provider delayDuration={isSkipping ? 0 : delayDuration} skipDelayDuration={skipDelayDuration}>
      <Primitive.Root
        data-slot="tooltip"
        {...props}
        onOpenChange={(open) => {
          setIsOpen(open);
          onOpenChange?.(open);
        }}
      />
    </Primitive.Provider>
  );
}

function TooltipTrigger(props: React.ComponentProps<TooltipPrimitive["Trigger"]>) {
  const { Primitive } = useTooltipLoader("TooltipTrigger");
  return Primitive ? <LoadedTooltipTrigger {...props} /> : <DormantTooltipTrigger {...props} />;
}

/**
 * The trigger before Radix has loaded: a closed Radix trigger's markup. As Radix's: the pointer
 * resting on it (not a touch) opens the tooltip after the delay, a keyboard focus at once; a press
 * cancels it until the pointer leaves.
 */
function DormantTooltipTrigger({
  asChild,
  ref,
  onPointerMove,
  onPointerLeave,
  onPointerDown,
  onFocus,
  onBlur,
  onClick,
  ...props
}: React.ComponentProps<TooltipPrimitive["Trigger"]>) {
  const loader = useTooltipLoader("TooltipTrigger");
  const { delayDuration } = React.useContext(TooltipDelaysContext);
  const state = React.useRef({
    isWanted: false,
    hasPointerMoved: false,
    isPointerDown: false,
    timer: undefined as ReturnType<typeof setTimeout> | undefined,
  }).current;
  React.useEffect(() => () => clearTimeout(state.timer), [state]);

  const open = () => {
    state.isWanted = true;
    tooltipModule.load().then(
      () => {
        if (state.isWanted) loader.wake();
      },
      () => undefined, // no tooltip this time: the next hover or focus tries the load again
    );
  };
  const cancel = () => {
    state.isWanted = false;
    clearTimeout(state.timer);
  };
  const Component = asChild ? Slot.Root : "button";
  return (
    <Component
      data-slot="tooltip-trigger"
      data-state="closed"
      {...props}
      ref={composeRefs(ref, loader.triggerRef)}
      onPointerMove={composeEventHandlers(onPointerMove, (event) => {
        if (event.pointerType === "touch" || state.hasPointerMoved) return;
        state.hasPointerMoved = true;
        preloadLazyModule(tooltipModule);
        state.timer = setTimeout(open, openTooltips.isSkipping ? 0 : delayDuration);
      })}
      onPointerLeave={composeEventHandlers(onPointerLeave, () => {
        state.hasPointerMoved = false;
        cancel();
      })}
      onPointerDown={composeEventHandlers(onPointerDown, () => {
        cancel();
        state.isPointerDown = true;
        document.addEventListener("pointerup", () => (state.isPointerDown = false), { once: true });
      })}
      onFocus={composeEventHandlers(onFocus, () => {
        if (!state.isPointerDown) open();
      })}
      onBlur={composeEventHandlers(onBlur, cancel)}
      onClick={composeEventHandlers(onClick, cancel)}
    />
  );
}

/** Radix's trigger; on its first mount it takes over the focus the dormant one had. */
function LoadedTooltipTrigger({ ref, ...props }: React.ComponentProps<TooltipPrimitive["Trigger"]>) {
  const loader = useTooltipLoader("TooltipTrigger");
  const Primitive = useTooltipPrimitive("TooltipTrigger");
  React.useEffect(() => {
    if (loader.takeHadFocus()) loader.triggerRef.current?.focus();
  }, [loader]);
  return <Primitive.Trigger data-slot="tooltip-trigger" {...props} ref={composeRefs(ref, loader.triggerRef)} />;
}

function TooltipArrow() {
  const Primitive = useTooltipPrimitive("TooltipArrow");
  return (
    <Primitive.Arrow className="z-50 size-2.5 translate-y-[calc(-50%_-_2px)] rotate-45 rounded-[2px] bg-foreground fill-foreground" />
  );
}

const TooltipPopup = lazySlot(
  useTooltipPrimitive,
  "Content",
  "tooltip-content",
  "z-50 w-fit origin-(--radix-tooltip-content-transform-origin) animate-in rounded-md bg-foreground px-3 py-1.5 text-xs text-balance text-background fade-in-0 zoom-in-95 data-[side=bottom]:slide-in-from-top-2 data-[side=left]:slide-in-from-right-2 data-[side=right]:slide-in-from-left-2 data-[side=top]:slide-in-from-bottom-2 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95",
  after(<TooltipArrow />),
);

function TooltipContent({ sideOffset = 0, ...props }: React.ComponentProps<TooltipPrimitive["Content"]>) {
  const { Primitive } = useTooltipLoader("TooltipContent");
  // A dormant tooltip is closed, and Radix renders nothing for a closed tooltip's content.
  if (!Primitive) return null;
  return (
    <Primitive.Portal>
      <TooltipPopup sideOffset={sideOffset} {...props} />
    </Primitive.Portal>
  );
}

export { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger };
