import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./modules/i18n/request.ts");

const nextConfig: NextConfig = {
  // Loaded by Node at run time rather than bundled: they load WebAssembly and data files next to
  // their own code, and the custom server shares their single instance through globalThis.
  // piscina starts its threads from its own files on disk, and the parse pool is shared likewise.
  serverExternalPackages: ["@prisma/adapter-pg", "pg", "piscina"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default withNextIntl(nextConfig);
