"use client";

// The app's toasts: import `toast` from here, not from "sonner". sonner (its toaster is ~10 kB
// gzip) is not part of any page's first load: it is fetched once the page is idle (so an error toast
// can show even after the network went away), and mounted with the first toast: `toast.success` /
// `toast.error` queue the toast, <Toaster> mounts sonner's toaster and shows the queued toasts once
// it has subscribed to them.

import * as React from "react";
import type { ExternalToast, ToasterProps } from "sonner";

import { createLazyModule, preloadLazyModule, useLazyModule } from "@/components/ui/lazy-primitive";

type Sonner = typeof import("./sonner-toaster");
type ToastMessage = Parameters<Sonner["toast"]["success"]>[0];

const sonnerModule = createLazyModule(() => import("./sonner-toaster"));

/** Toasts asked for before a toaster had mounted, and the toaster's state once it has. */
const toastQueue = {
  pending: [] as ((sonner: Sonner) => void)[],
  mounted: null as Sonner | null,
  isWanted: false,
  listeners: new Set<() => void>(),
};

function showToast(show: (sonner: Sonner) => void) {
  if (toastQueue.mounted) {
    show(toastQueue.mounted);
    return;
  }
  toastQueue.pending.push(show);
  if (toastQueue.isWanted) return;
  toastQueue.isWanted = true;
  for (const listener of toastQueue.listeners) listener();
}

const toast = {
  success: (message: ToastMessage, data?: ExternalToast) => showToast((sonner) => sonner.toast.success(message, data)),
  error: (message: ToastMessage, data?: ExternalToast) => showToast((sonner) => sonner.toast.error(message, data)),
};

function subscribeToToastWanted(listener: () => void) {
  toastQueue.listeners.add(listener);
  return () => toastQueue.listeners.delete(listener);
}

/** App-wide toast outlet. Light theme only (no next-themes). */
function Toaster({
  theme = "light",
  position = "bottom-right",
  duration = 4000,
  visibleToasts = 3,
  richColors = false,
  style,
  ...props
}: ToasterProps) {
  const isToastWanted = React.useSyncExternalStore(
    subscribeToToastWanted,
    () => toastQueue.isWanted,
    () => false,
  );
  const sonner = useLazyModule(sonnerModule, isToastWanted);

  // Fetched once the page is idle, not with it: a toast saying the network went away can then still show.
  React.useEffect(() => {
    const idle = globalThis.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 2000));
    idle(() => preloadLazyModule(sonnerModule));
  }, []);

  // sonner's toaster (a child) has subscribed in its own effect by now: hand it the queued toasts.
  React.useEffect(() => {
    if (!sonner) return;
    toastQueue.mounted = sonner;
    for (const show of toastQueue.pending.splice(0)) show(sonner);
    return () => {
      toastQueue.mounted = null;
    };
  }, [sonner]);

  if (!sonner) return null;
  return (
    <sonner.Toaster
      theme={theme}
      position={position}
      duration={duration}
      visibleToasts={visibleToasts}
      richColors={richColors}
      className="toaster group"
      style={
        {
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
          "--border-radius": "var(--radius)",
          ...style,
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster, toast };
