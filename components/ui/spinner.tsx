import { Loader2Icon } from "lucide-react";
import type * as React from "react";

import { cn } from "@/modules/shared/cn";

type SpinnerProps = React.ComponentProps<"svg"> & {
  /** Accessible name announced by screen readers. */
  "aria-label"?: string;
};

function Spinner({ className, "aria-label": ariaLabel = "Loading", ...props }: SpinnerProps) {
  return (
    <Loader2Icon
      data-slot="spinner"
      role="status"
      aria-label={ariaLabel}
      className={cn("size-4 animate-spin", className)}
      {...props}
    />
  );
}

export { Spinner };
