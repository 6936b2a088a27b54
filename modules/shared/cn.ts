import { type ClassValue, clsx } from "clsx";
import { createTailwindMerge } from "tailwind-merge";
import { getTailwindMergeConfig } from "./tailwind-merge-config";

/** tailwind-merge with a configuration limited to the app's classes (see tailwind-merge-config.ts). */
export const mergeClasses = createTailwindMerge(getTailwindMergeConfig);

/** Merge class names: conditional joining via clsx, conflict resolution via tailwind-merge. */
export function cn(...inputs: ClassValue[]): string {
  return mergeClasses(clsx(inputs));
}
