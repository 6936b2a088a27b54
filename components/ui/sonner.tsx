"use client";

// The app's toasts: import `toast` from here, not from "sonner". sonner (its toaster is ~10 kB
// gzip) is not part of any page's first load: `toast.success` / `toast.error` queue the toast, and
// the first one fetches sonner; <Toaster> then mounts sonner's toaster and hands it the queued toasts
// once it has subscribed to them. When sonner cannot be fetched (the network went away, often what
// the toast is about), the queued toasts show in a built-in toast of the same look instead
// (fallback-toasts.tsx), and the next toast tries the fetch again.

import * as React from "react";
import type { ExternalToast, ToasterProps } from "sonner";

import { type FallbackToast, FallbackToasts } from "@/components/ui/fallback-toasts";
import { createLazyModule } from "@/components/ui/lazy-primitive";

type Sonner = typeof import("./sonner-toaster");
type ToastMessage = Parameters<Sonner["toast"]["success"]>[0];
type ToastRequest = { kind: "success" | "error"; message: ToastMessage; data?: ExternalToast };

const sonnerModule = createLazyModule(() => import("./sonner-toaster"));

/** Toasts asked for before sonner's toaster had mounted, and the toaster once it has. */
const toastQueue = {
  pending: [] as ToastRequest[],
  mounted: null as Sonner | null,
  /** Counts the toasts queued so far: <Toaster> loads sonner when it changes. */
  queued: 0,
  listeners: new Set<() => void>(),
};

function showToast(request: ToastRequest) {
  if (toastQueue.mounted) {
    toastQueue.mounted.toast[request.kind](request.message, request.data);
    return;
  }
  toastQueue.pending.push(request);
  toastQueue.queued += 1;
  for (const listener of toastQueue.listeners) listener();
}

const toast = {
  success: (message: ToastMessage, data?: ExternalToast) => showToast({ kind: "success", message, data }),
  error: (message: ToastMessage, data?: ExternalToast) => showToast({ kind: "error", message, data }),
};

function subscribeToQueue(listener: () => void) {
  toastQueue.listeners.add(listener);
  return () => toastQueue.listeners.delete(listener);
}

let nextFallbackId = 0;

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
  const queued = React.useSyncExternalStore(
    subscribeToQueue,
    () => toastQueue.queued,
    () => 0,
  );
  const [sonner, setSonner] = React.useState<Sonner | null>(sonnerModule.peek);
  const [fallbackToasts, setFallbackToasts] = React.useState<FallbackToast[]>([]);
  const dismissFallback = React.useCallback(
    (id: number) => setFallbackToasts((shown) => shown.filter((fallback) => fallback.id !== id)),
    [],
  );

  // A toast is waiting: fetch sonner, or show the waiting toasts without it if it cannot be fetched.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `queued` changes when a toast is queued, which is when to (re)try
  React.useEffect(() => {
    if (sonner || toastQueue.pending.length === 0) return;
    let isCancelled = false;
    sonnerModule.load().then(
      (loaded) => {
        if (!isCancelled) setSonner(() => loaded);
      },
      () => {
        if (isCancelled) return;
        const waiting = toastQueue.pending.splice(0).map(
          ({ kind, message, data }): FallbackToast => ({
            id: nextFallbackId++,
            kind,
            title: message,
            description: data?.description,
            durationMs: data?.duration ?? duration,
          }),
        );
        setFallbackToasts((shown) => [...shown, ...waiting]);
      },
    );
    return () => {
      isCancelled = true;
    };
  }, [sonner, queued, duration]);

  // sonner's toaster (a child) has subscribed in its own effect by now: hand it the queued toasts.
  React.useEffect(() => {
    if (!sonner) return;
    toastQueue.mounted = sonner;
    for (const request of toastQueue.pending.splice(0)) sonner.toast[request.kind](request.message, request.data);
    return () => {
      toastQueue.mounted = null;
    };
  }, [sonner]);

  return (
    <>
      <FallbackToasts toasts={fallbackToasts} visibleToasts={visibleToasts} onDismiss={dismissFallback} />
      {sonner ? (
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
      ) : null}
    </>
  );
}

export { Toaster, toast };
