// Radix's dialog and alert dialog, in a module of their own so that dialog.tsx and alert-dialog.tsx
// can load them on demand.
export { AlertDialog as AlertDialogPrimitive, Dialog as DialogPrimitive } from "radix-ui";
