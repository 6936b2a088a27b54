import { slot } from "@/components/ui/slot";

const Card = slot("div", "card", "flex flex-col gap-6 rounded-xl border bg-card py-6 text-card-foreground shadow-sm");

const CardHeader = slot(
  "div",
  "card-header",
  "@container/card-header grid auto-rows-min grid-rows-[auto_auto] items-start gap-2 px-6 has-data-[slot=card-action]:grid-cols-[1fr_auto] [.border-b]:pb-6",
);

const CardTitle = slot("div", "card-title", "leading-none font-semibold");

const CardDescription = slot("div", "card-description", "text-sm text-muted-foreground");

const CardAction = slot("div", "card-action", "col-start-2 row-span-2 row-start-1 self-start justify-self-end");

const CardContent = slot("div", "card-content", "px-6");

const CardFooter = slot("div", "card-footer", "flex items-center px-6 [.border-t]:pt-6");

export { Card, CardAction, CardContent, CardDescription, CardFooter, CardHeader, CardTitle };
