// Which addresses' inboxes this page follows live through the events stream (docs/webhooks.md: Live
// events). While an inbox is live its queries are refreshed by the stream's events and do not poll;
// while the stream is down (before it opens, or between reconnections) they poll as a fallback.
import { useSyncExternalStore } from "react";

const liveEmailCallbacks = new Map<string, number>();
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

/** Marks an address's inbox live (one mark per open stream); the returned function takes it back. */
export function markInboxLive(emailCallbackId: string): () => void {
  liveEmailCallbacks.set(emailCallbackId, (liveEmailCallbacks.get(emailCallbackId) ?? 0) + 1);
  notify();
  let isTaken = false;
  return () => {
    if (isTaken) return;
    isTaken = true;
    const count = (liveEmailCallbacks.get(emailCallbackId) ?? 1) - 1;
    if (count > 0) liveEmailCallbacks.set(emailCallbackId, count);
    else liveEmailCallbacks.delete(emailCallbackId);
    notify();
  };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether an open events stream keeps this address's inbox up to date. */
export function useIsInboxLive(emailCallbackId: string): boolean {
  return useSyncExternalStore(
    subscribe,
    () => liveEmailCallbacks.has(emailCallbackId),
    () => false,
  );
}
