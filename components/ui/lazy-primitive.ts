// biome-ignore-all lint/correctness/noComponentHookFactories: createLoaderContext runs once per primitive at module scope, never during a render
"use client";
// Loads a Radix primitive's code when one is first about to be used rather than with the page: a
// menu, dialog or tooltip is closed on first load, so its positioning, focus-trap and scroll-lock
// code can wait for the gesture that opens it. One load per primitive, shared by every instance.
import * as React from "react";

export type LazyModule<T> = { load: () => Promise<T>; peek: () => T | null };

export function createLazyModule<T>(importModule: () => Promise<T>): LazyModule<T> {
  let loaded: T | null = null;
  let pending: Promise<T> | null = null;
  return {
    load() {
      pending ??= importModule().then(
        (module) => (loaded = module),
        (error: unknown) => {
          pending = null; // a failed chunk load is tried again on the next gesture
          throw error;
        },
      );
      return pending;
    },
    peek: () => loaded,
  };
}

let reportLoadError: ((error: unknown) => void) | null = null;

/** Who tells the user that a part of the page could not load (the app shows a translated toast). */
export function setLazyLoadErrorHandler(handler: ((error: unknown) => void) | null) {
  reportLoadError = handler;
}

/** Starts loading without waiting (hover, focus: the gesture that usually comes before a press). */
export function preloadLazyModule(lazyModule: LazyModule<unknown>) {
  lazyModule.load().catch(() => undefined);
}

/**
 * The module once it has loaded and `isNeeded` has been true (loading starts then), else null.
 * An instance mounted after the module has loaded has it from its first render.
 */
export function useLazyModule<T>(lazyModule: LazyModule<T>, isNeeded: boolean): T | null {
  const [module, setModule] = React.useState<T | null>(lazyModule.peek);
  React.useEffect(() => {
    if (!isNeeded || module) return;
    let isCancelled = false;
    lazyModule.load().then(
      (loaded) => {
        if (!isCancelled) setModule(() => loaded);
      },
      // The menu or dialog cannot open: say so (the next press tries the load again).
      (error: unknown) => {
        if (!isCancelled) reportLoadError?.(error);
      },
    );
    return () => {
      isCancelled = true;
    };
  }, [lazyModule, isNeeded, module]);
  return module ?? (isNeeded ? lazyModule.peek() : null);
}

/**
 * The root of a primitive that stays dormant until first used: its Radix module once loaded (or
 * opened from its props), the trigger's element, and what the dormant trigger hands over to Radix's
 * when it wakes the root (`wakeWith`), read once and reset to `idle` by `takeHandOver`. `idle` must
 * be the same value at every render (a constant).
 */
export function useDormantRoot<T, H>(lazyModule: LazyModule<T>, props: { open?: boolean; defaultOpen?: boolean }, idle: H) {
  const [isWoken, setIsWoken] = React.useState(false);
  const Primitive = useLazyModule(lazyModule, isWoken || props.open === true || props.defaultOpen === true);
  const triggerRef = React.useRef<HTMLElement | null>(null);
  const handOverRef = React.useRef(idle);
  const wakeWith = React.useCallback((handOver: H) => {
    handOverRef.current = handOver;
    setIsWoken(true);
  }, []);
  const takeHandOver = React.useCallback(() => {
    const handOver = handOverRef.current;
    handOverRef.current = idle;
    return handOver;
  }, [idle]);
  return { Primitive, isWoken, triggerRef, wakeWith, takeHandOver };
}

/** Whether the dormant trigger has the focus (Radix's trigger, replacing it, is to take it over). */
export function hasFocus(triggerRef: React.RefObject<HTMLElement | null>): boolean {
  const trigger = triggerRef.current;
  return trigger !== null && trigger === document.activeElement;
}

/**
 * The context through which a lazily loaded primitive's parts reach its loader: `useLoader(part)` in
 * the parts that render while it may not have loaded, `usePrimitive(part)` in those that only render
 * inside its open content. `name` is the root component's name in error messages.
 */
export function createLoaderContext<L extends { Primitive: unknown }>(name: string) {
  const LoaderContext = React.createContext<L | null>(null);

  function useLoader(part: string): L {
    const loader = React.useContext(LoaderContext);
    if (!loader) throw new Error(`<${part}> must be used within <${name}>`);
    return loader;
  }

  function usePrimitive(part: string): NonNullable<L["Primitive"]> {
    const { Primitive } = useLoader(part);
    if (!Primitive) throw new Error(`<${part}> must be used within <${name}Content>`);
    return Primitive;
  }

  return { Provider: LoaderContext.Provider, useLoader, usePrimitive };
}

/** Runs a handler the caller passed, then ours unless the caller prevented the default (as Radix does). */
export function composeEventHandlers<E extends { defaultPrevented: boolean }>(
  theirs: ((event: E) => void) | undefined,
  ours: (event: E) => void,
) {
  return (event: E) => {
    theirs?.(event);
    if (!event.defaultPrevented) ours(event);
  };
}

/** One ref callback setting several refs (the caller's and ours). */
export function composeRefs<T>(...refs: (React.Ref<T> | undefined)[]): React.RefCallback<T> {
  return (node) => {
    for (const ref of refs) {
      if (typeof ref === "function") ref(node);
      else if (ref) ref.current = node;
    }
  };
}
