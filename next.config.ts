import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { LOCALES } from "./modules/i18n/i18n.constants";

const withNextIntl = createNextIntlPlugin({
  requestConfig: "./modules/i18n/request.ts",
  // The catalogues in messages/ are compiled when built: an import of messages/<locale>.json gives
  // each ICU message already parsed, so the browser formats them without intl-messageformat's
  // parser. Outside the build (tests, the mail worker under tsx) the same files are read as plain JSON.
  experimental: { messages: { path: "./messages", format: "json", locales: LOCALES, precompile: true } },
});

const nextConfig: NextConfig = {
  // Loaded by Node at run time rather than bundled: they load WebAssembly and data files next to
  // their own code, and the custom server shares their single instance through globalThis.
  // piscina starts its threads from its own files on disk, and the parse pool is shared likewise.
  serverExternalPackages: ["@prisma/adapter-pg", "pg", "piscina"],
  poweredByHeader: false,
  // The stylesheet (≈ 12 kB gzip) comes inside the document's <head> instead of as a second request
  // the first paint waits for: on a slow network that request alone is a round trip before anything
  // shows (bench/RESULTS.md §9). The pages after the first are client-side navigations, which do
  // not load it again either way.
  experimental: { inlineCss: true },
  typedRoutes: false,
};

export default withNextIntl(nextConfig);
