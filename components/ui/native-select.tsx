import { ChevronDownIcon } from "lucide-react";
import type * as React from "react";

import { cn } from "@/modules/shared/cn";

// The browser's own <select>, styled as the app's inputs: no script to load, the platform's picker
// on phones, and a keyboard and screen reader behaviour users know. `className` goes to the wrapper
// (its width, its place in a flex row); every other prop to the <select>, which is at least as wide
// as its longest option (a flex row wraps rather than squeezing it) and fills the wrapper.
function NativeSelect({
  className,
  size = "default",
  ...props
}: Omit<React.ComponentProps<"select">, "size"> & { size?: "sm" | "default" }) {
  return (
    <div data-slot="native-select-wrapper" className={cn("relative w-fit", className)}>
      <select
        data-slot="native-select"
        data-size={size}
        className={cn(
          "h-9 min-w-full cursor-pointer appearance-none rounded-md border border-input bg-transparent py-1 pr-8 pl-3 text-sm shadow-xs transition-[color,box-shadow] outline-none data-[size=sm]:h-8 disabled:cursor-not-allowed disabled:opacity-50 dark:bg-input/30",
          "focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50",
          "aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40",
        )}
        {...props}
      />
      <ChevronDownIcon
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground opacity-50"
      />
    </div>
  );
}

export { NativeSelect };
