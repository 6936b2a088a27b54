import type { ReactNode } from "react";
import { PublicLayout } from "@/modules/app-shell/components/public-layout";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return <PublicLayout>{children}</PublicLayout>;
}
