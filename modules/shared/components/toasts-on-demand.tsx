"use client";
// Toasts whose code is out of the page's first load (docs/architecture.md, Decisions and their
// reasons: page weight): sonner and the shadcn toaster (components/ui/sonner.tsx) load with the
// first toast. `useToast()` gives the calls the features make, with sonner's arguments. The
// provider keeps the toasts raised while sonner loads, mounts the toaster once in its outlet, then
// shows them there in the order they were raised; later toasts go straight to sonner. No other file
// but the shadcn toaster imports sonner (tests/import-directions.test.ts).
import { type ComponentType, createContext, type ReactNode, useContext, useEffect, useState } from "react";
import type { toast as sonnerToast } from "sonner";

type ToastKind = "success" | "error";
type ToastArguments = Parameters<typeof sonnerToast.success>;
type ToastCall = { kind: ToastKind; toastArguments: ToastArguments };
type LoadedToaster = { toast: typeof sonnerToast; Toaster: ComponentType };

/** The toast calls of sonner that the features use, with the same arguments. */
export type Toasts = Record<ToastKind, (...toastArguments: ToastArguments) => void>;

const ToastsContext = createContext<Toasts | null>(null);

function loadToaster(): Promise<LoadedToaster> {
  return Promise.all([import("sonner"), import("@/components/ui/sonner")]).then(([sonner, ui]) => ({
    toast: sonner.toast,
    Toaster: ui.Toaster,
  }));
}

/**
 * One provider's toasts: those raised before the toaster is mounted wait, in order, and the first
 * starts `load`; `attach` (once the toaster is mounted) shows them and lets the next ones through.
 * If loading fails, the waiting toasts stay and the next toast loads again.
 */
function createToastQueue(load: () => Promise<unknown>) {
  const waiting: ToastCall[] = [];
  let show: ((call: ToastCall) => void) | null = null;
  let isLoading = false;

  function raise(call: ToastCall) {
    if (show) return show(call);
    waiting.push(call);
    if (isLoading) return;
    isLoading = true;
    load().catch(() => {
      isLoading = false;
    });
  }

  function attach(toast: typeof sonnerToast) {
    show = ({ kind, toastArguments }) => void toast[kind](...toastArguments);
    for (const call of waiting.splice(0)) show(call);
  }

  const toasts: Toasts = {
    success: (...toastArguments) => raise({ kind: "success", toastArguments }),
    error: (...toastArguments) => raise({ kind: "error", toastArguments }),
  };
  return { toasts, attach };
}

export function ToastsOnDemandProvider({ children }: { children: ReactNode }) {
  const [toaster, setToaster] = useState<LoadedToaster | null>(null);
  const [queue] = useState(() => createToastQueue(() => loadToaster().then(setToaster)));
  return (
    <ToastsContext.Provider value={queue.toasts}>
      {children}
      {toaster ? <ToasterOutlet toaster={toaster} onMounted={queue.attach} /> : null}
    </ToastsContext.Provider>
  );
}

/** The toaster subscribes to sonner in its own effect, which runs before this one's: nothing shown here is missed. */
function ToasterOutlet({
  toaster: { Toaster, toast },
  onMounted,
}: {
  toaster: LoadedToaster;
  onMounted: (toast: typeof sonnerToast) => void;
}) {
  useEffect(() => onMounted(toast), [toast, onMounted]);
  return <Toaster />;
}

/** The toast calls; the first loads the toaster. Inside `ToastsOnDemandProvider` (the app's providers). */
export function useToast(): Toasts {
  const toasts = useContext(ToastsContext);
  if (!toasts) throw new Error("useToast needs a ToastsOnDemandProvider above it");
  return toasts;
}
