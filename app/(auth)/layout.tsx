import type { ReactNode } from "react";
import { PublicLayout } from "@/modules/shared/components/public-layout";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return <PublicLayout>{children}</PublicLayout>;
}
