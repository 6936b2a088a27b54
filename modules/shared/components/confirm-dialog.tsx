"use client";
// A confirmation dialog: a title, a description, a confirm button (red when
// the action destroys something) and Cancel. `useConfirmDialog().confirm(…)` resolves true on
// confirm, false on cancel or dismissal. Its code (Radix's alert dialog: confirm-alert-dialog.tsx)
// is out of the page's first load: it loads with the first question (docs/architecture.md,
// Decisions and their reasons: page weight).
import dynamic from "next/dynamic";
import { type ReactNode, useCallback, useRef, useState } from "react";
import type { ConfirmDialogOptions } from "./confirm-alert-dialog";

const ConfirmDialog = dynamic(() => import("./confirm-alert-dialog").then((module) => module.ConfirmDialog), {
  ssr: false,
});

export type { ConfirmDialogOptions };

/** Render `dialog` somewhere in the component; `confirm(options)` opens it and waits for the answer. */
export function useConfirmDialog(): {
  confirm: (options: ConfirmDialogOptions) => Promise<boolean>;
  dialog: ReactNode;
} {
  const [isOpen, setIsOpen] = useState(false);
  // Kept after closing so the dialog keeps its text while it fades out.
  const [options, setOptions] = useState<ConfirmDialogOptions | null>(null);
  const resolveRef = useRef<((isConfirmed: boolean) => void) | null>(null);

  const settle = useCallback((isConfirmed: boolean) => {
    resolveRef.current?.(isConfirmed);
    resolveRef.current = null;
    setIsOpen(false);
  }, []);

  const confirm = useCallback((nextOptions: ConfirmDialogOptions) => {
    resolveRef.current?.(false);
    setOptions(nextOptions);
    setIsOpen(true);
    return new Promise<boolean>((resolve) => {
      resolveRef.current = resolve;
    });
  }, []);

  const dialog = options ? (
    <ConfirmDialog
      {...options}
      open={isOpen}
      onOpenChange={(open) => {
        if (!open) settle(false);
      }}
      onConfirm={() => settle(true)}
    />
  ) : null;

  return { confirm, dialog };
}
