"use client";

import { Tabs as TabsPrimitive } from "radix-ui";

import { slot } from "@/components/ui/slot";

const Tabs = slot(TabsPrimitive.Root, "tabs", "flex flex-col gap-2");

const TabsList = slot(
  TabsPrimitive.List,
  "tabs-list",
  "inline-flex h-9 w-fit items-center justify-center rounded-lg bg-muted p-[3px] text-muted-foreground",
);

const TabsTrigger = slot(
  TabsPrimitive.Trigger,
  "tabs-trigger",
  "inline-flex h-[calc(100%-1px)] flex-1 items-center justify-center gap-1.5 rounded-md border border-transparent px-2 py-1 text-sm font-medium whitespace-nowrap text-foreground transition-[color,box-shadow] focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-1 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:shadow-sm dark:text-muted-foreground dark:data-[state=active]:border-input dark:data-[state=active]:bg-input/30 dark:data-[state=active]:text-foreground [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4",
);

const TabsContent = slot(TabsPrimitive.Content, "tabs-content", "flex-1 outline-none");

export { Tabs, TabsContent, TabsList, TabsTrigger };
