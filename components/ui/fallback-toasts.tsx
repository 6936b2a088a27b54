"use client";
// The toasts shown when sonner's code could not be fetched (the network went away, which is often
// what the toast says): a plain list in the toaster's place (bottom right) and with its look,
// announced to assistive technology, each one gone after its duration. Part of the first load, so
// it needs nothing from the network.

import { CircleCheckIcon, OctagonXIcon } from "lucide-react";
import * as React from "react";

type Content = React.ReactNode | (() => React.ReactNode);

export type FallbackToast = {
  id: number;
  kind: "success" | "error";
  title: Content;
  description?: Content;
  durationMs: number;
};

const render = (content: Content) => (typeof content === "function" ? content() : content);

function FallbackToastItem({ toast, onDismiss }: { toast: FallbackToast; onDismiss: (id: number) => void }) {
  React.useEffect(() => {
    if (!Number.isFinite(toast.durationMs)) return; // sonner's `duration: Infinity`: stays until the page changes
    const timer = setTimeout(() => onDismiss(toast.id), toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast.id, toast.durationMs, onDismiss]);
  const Icon = toast.kind === "success" ? CircleCheckIcon : OctagonXIcon;
  return (
    <li
      role="status"
      aria-live="polite"
      aria-atomic="true"
      className="flex w-full items-center gap-1.5 rounded-lg border border-border bg-popover p-4 text-[13px] text-popover-foreground shadow-[0_4px_12px_rgba(0,0,0,0.1)] [overflow-wrap:anywhere]"
    >
      <span aria-hidden="true" className="-ml-[3px] mr-1 flex size-4 shrink-0 items-center">
        <Icon className="size-4" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <div className="font-medium leading-normal">{render(toast.title)}</div>
        {toast.description ? <div className="text-[#3f3f3f] leading-[1.4]">{render(toast.description)}</div> : null}
      </div>
    </li>
  );
}

/** The last `visibleToasts` of `toasts`, newest at the bottom. */
export function FallbackToasts({
  toasts,
  visibleToasts,
  onDismiss,
}: {
  toasts: FallbackToast[];
  visibleToasts: number;
  onDismiss: (id: number) => void;
}) {
  if (toasts.length === 0) return null;
  return (
    <section
      aria-label="Notifications"
      className="fixed right-6 bottom-6 z-[999999999] w-[356px] max-[600px]:right-4 max-[600px]:bottom-4 max-[600px]:left-4 max-[600px]:w-auto"
    >
      <ol className="flex flex-col gap-3.5">
        {toasts.slice(-visibleToasts).map((toast) => (
          <FallbackToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />
        ))}
      </ol>
    </section>
  );
}
