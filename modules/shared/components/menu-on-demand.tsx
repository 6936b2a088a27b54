"use client";
// A menu that is closed on first paint, with its code (Radix's dropdown menu) out of the page's
// first load (docs/architecture.md, Decisions and their reasons: page weight): a plain button stands
// in for the menu's trigger, with the same name, role and look; pointing at it or focusing it starts
// loading the menu, and opening it (a click, Enter or Space, or the Down arrow as on Radix's trigger)
// mounts the menu open. From then on the menu, with its own trigger, stays mounted.
import { type ComponentProps, cloneElement, type ReactElement, type ReactNode, useState } from "react";

export function MenuOnDemand({
  trigger,
  preload,
  menu,
}: {
  /** The trigger's button: shown as it is until the menu is first opened, then given to the menu. */
  trigger: ReactElement<ComponentProps<"button">>;
  /** Starts loading the menu's code: its `next/dynamic` component's import. */
  preload: () => unknown;
  /** The menu, loaded with `next/dynamic` and rendered open at first (`defaultOpen`). */
  menu: ReactNode;
}) {
  const [isMounted, setIsMounted] = useState(false);
  if (isMounted) return menu;
  return cloneElement(trigger, {
    "aria-haspopup": "menu",
    "aria-expanded": false,
    onPointerEnter: () => void preload(),
    onFocus: () => void preload(),
    onClick: () => setIsMounted(true),
    onKeyDown: (event) => {
      if (event.key !== "ArrowDown") return;
      event.preventDefault();
      setIsMounted(true);
    },
  });
}
