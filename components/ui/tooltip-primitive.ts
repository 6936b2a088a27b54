// Radix's tooltip, in a module of its own so that tooltip.tsx can load it on demand.
export { Tooltip as TooltipPrimitive } from "radix-ui";
