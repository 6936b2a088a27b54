import type { ReactNode } from "react";
import { PublicLayout } from "@/modules/app-shell/components/public-layout";
import { ConfigProvider } from "@/modules/config/components/config-provider";

// The auth pages read the instance's public config from GET /api/config before they render.
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider>
      <PublicLayout>{children}</PublicLayout>
    </ConfigProvider>
  );
}
