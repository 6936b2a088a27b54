import type { ReactNode } from "react";
import { AppLayout } from "@/modules/app-shell/components/app-layout";

export default function SignedInLayout({ children }: { children: ReactNode }) {
  return <AppLayout>{children}</AppLayout>;
}
