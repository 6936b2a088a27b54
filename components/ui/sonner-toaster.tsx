"use client";
// sonner's toaster with the app's icons, in a module of its own so that sonner.tsx can load both on demand.
import { CircleCheckIcon, InfoIcon, Loader2Icon, OctagonXIcon, TriangleAlertIcon } from "lucide-react";
import { Toaster as SonnerToaster, type ToasterProps } from "sonner";

export { toast } from "sonner";

const icons = {
  success: <CircleCheckIcon className="size-4" />,
  info: <InfoIcon className="size-4" />,
  warning: <TriangleAlertIcon className="size-4" />,
  error: <OctagonXIcon className="size-4" />,
  loading: <Loader2Icon className="size-4 animate-spin" />,
};

export function Toaster(props: ToasterProps) {
  return <SonnerToaster icons={icons} {...props} />;
}
