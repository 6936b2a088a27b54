// Where focus goes when a dialog opened from a menu closes: the menu's button. The menu item that
// opened the dialog is gone by then, and focus would otherwise fall to the page itself.
import type { RefObject } from "react";

/** A dialog content's `onCloseAutoFocus` that focuses `target` (when given and still on the page). */
export function returnFocusTo(target: RefObject<HTMLElement | null> | undefined) {
  return (event: Event) => {
    if (!target?.current?.isConnected) return;
    event.preventDefault();
    target.current.focus();
  };
}
