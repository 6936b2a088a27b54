// biome-ignore-all lint/correctness/noComponentHookFactories: each factory runs once per component at module scope, never during a render
// The parts of components/ui that render one element and nothing else: the element with its
// data-slot, default classes merged with the caller's className, and every other prop passed on.
import type * as React from "react";

import { cn } from "@/modules/shared/cn";

/** "card-header" → "CardHeader": the part's name in React's developer tools and in error messages. */
function partName(dataSlot: string): string {
  return dataSlot.replace(/(?:^|-)([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** What a part renders inside, given the caller's children: an icon or indicator along with them, or instead of them. */
type RenderChildren = (children: React.ReactNode) => React.ReactNode;

/** The props of the element: `classes` merged with the caller's className, else the caller's props as they are. */
function slotProps(
  dataSlot: string,
  classes: string | undefined,
  renderChildren: RenderChildren | undefined,
  props: { className?: string; children?: React.ReactNode },
) {
  const { className, ...rest } = props;
  return {
    "data-slot": dataSlot,
    ...(classes === undefined ? props : { className: cn(classes, className), ...rest }),
    ...(renderChildren && { children: renderChildren(props.children) }),
  };
}

/** `renderChildren` putting `node` before the caller's children. */
export function before(node: React.ReactNode): RenderChildren {
  return (children) => (
    <>
      {node}
      {children}
    </>
  );
}

/** `renderChildren` putting `node` after the caller's children. */
export function after(node: React.ReactNode): RenderChildren {
  return (children) => (
    <>
      {children}
      {node}
    </>
  );
}

/** The data-slot of a part, its default classes, and what it renders inside given the caller's children. */
type SlotStyle = [dataSlot: string, classes?: string, renderChildren?: RenderChildren];

/** A part rendering the element `useElement(name)` returns, or nothing while that is undefined. */
function createSlot<Props>(
  useElement: (name: string) => React.ElementType | undefined,
  [dataSlot, classes, renderChildren]: SlotStyle,
) {
  const name = partName(dataSlot);
  function Slot(props: Props & { className?: string; children?: React.ReactNode }) {
    const Element = useElement(name);
    return Element ? <Element {...slotProps(dataSlot, classes, renderChildren, props)} /> : null;
  }
  Slot.displayName = name;
  return Slot;
}

/**
 * A part rendering `Component` (an HTML tag or a Radix part) with `data-slot={dataSlot}` and `classes`,
 * and inside it `renderChildren(children)` when given, else the caller's children.
 */
export function slot<C extends React.ElementType>(Component: C, ...style: SlotStyle) {
  return createSlot<React.ComponentProps<C>>(() => Component, style);
}

/**
 * As `slot`, for a part of a Radix primitive loaded on demand: `usePrimitive(name)` returns the loaded
 * primitive (or throws where it cannot have loaded), or null while it has not loaded; then the part
 * renders nothing.
 */
export function lazySlot<K extends string, P extends Record<K, React.ElementType>>(
  usePrimitive: (part: string) => P | null,
  key: K,
  ...style: SlotStyle
) {
  return createSlot<React.ComponentProps<P[K]>>((name) => usePrimitive(name)?.[key], style);
}
