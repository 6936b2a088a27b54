import type { ReactNode } from "react";
import { AuthenticatedLayout } from "@/modules/auth/components/authenticated-layout";

export default function AppLayout({ children }: { children: ReactNode }) {
  return <AuthenticatedLayout>{children}</AuthenticatedLayout>;
}
