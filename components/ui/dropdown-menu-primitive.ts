// Radix's dropdown menu, in a module of its own so that dropdown-menu.tsx can load it on demand.
export { DropdownMenu as DropdownMenuPrimitive } from "radix-ui";
