import { slot } from "@/components/ui/slot";

const Skeleton = slot("div", "skeleton", "animate-pulse rounded-md bg-accent");

export { Skeleton };
