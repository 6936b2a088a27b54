"use client";
// The action dialog itself (Radix's dialog), loaded when it first opens (action-dialog.tsx).
import type { ReactNode, RefObject } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { returnFocusTo } from "./return-focus";

export type ActionDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  descriptionClassName?: string;
  /** The dialog box's classes (its width and height). */
  className?: string;
  /** Screen-reader text of the close (X) button. */
  closeLabel: string;
  /** Text of the footer's outlined button that closes the dialog. */
  dismissLabel: ReactNode;
  /** The footer's main button. */
  action: ReactNode;
  /** Where focus goes back on close (the button of the menu the dialog was opened from). */
  returnFocus?: RefObject<HTMLElement | null>;
  children: ReactNode;
};

export function ActionDialogFrame({
  open,
  onOpenChange,
  title,
  description,
  descriptionClassName,
  className,
  closeLabel,
  dismissLabel,
  action,
  returnFocus,
  children,
}: ActionDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className={className} closeLabel={closeLabel} onCloseAutoFocus={returnFocusTo(returnFocus)}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription className={descriptionClassName}>{description}</DialogDescription>
        </DialogHeader>
        {children}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">{dismissLabel}</Button>
          </DialogClose>
          {action}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
