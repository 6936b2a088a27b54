"use client";
// A dialog with a title and its description, the content, and a footer: an outlined button that
// closes the dialog, then the dialog's own action (the checkout, a redelivery). Its code (Radix's
// dialog: action-dialog-frame.tsx) is out of the page's first load: it loads when the dialog first
// opens, and stays mounted from then on (docs/architecture.md, Decisions and their reasons: page
// weight).
import dynamic from "next/dynamic";
import { useState } from "react";
import type { ActionDialogProps } from "./action-dialog-frame";

const ActionDialogFrame = dynamic(() => import("./action-dialog-frame").then((module) => module.ActionDialogFrame), {
  ssr: false,
});

export function ActionDialog(props: ActionDialogProps) {
  const [hasOpened, setHasOpened] = useState(props.open);
  if (props.open && !hasOpened) setHasOpened(true);
  return hasOpened ? <ActionDialogFrame {...props} /> : null;
}
