import type * as React from "react";

import { slot } from "@/components/ui/slot";
import { cn } from "@/modules/shared/cn";

function Table({ className, containerClassName, ...props }: React.ComponentProps<"table"> & { containerClassName?: string }) {
  return (
    <div data-slot="table-container" className={cn("relative w-full overflow-x-auto", containerClassName)}>
      <table data-slot="table" className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}

const TableHeader = slot("thead", "table-header", "[&_tr]:border-b");

const TableBody = slot("tbody", "table-body", "[&_tr:last-child]:border-0");

const TableFooter = slot("tfoot", "table-footer", "border-t bg-muted/50 font-medium [&>tr]:last:border-b-0");

const TableRow = slot("tr", "table-row", "border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted");

const TableHead = slot(
  "th",
  "table-head",
  "h-10 px-2 text-left align-middle font-medium whitespace-nowrap text-foreground [&:has([role=checkbox])]:pr-0 [&>[role=checkbox]]:translate-y-[2px]",
);

const TableCell = slot(
  "td",
  "table-cell",
  "p-2 align-middle whitespace-nowrap [&:has([role=checkbox])]:pr-0 [&>[role=checkbox]]:translate-y-[2px]",
);

const TableCaption = slot("caption", "table-caption", "mt-4 text-sm text-muted-foreground");

export { Table, TableBody, TableCaption, TableCell, TableFooter, TableHead, TableHeader, TableRow };
