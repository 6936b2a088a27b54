// The better-auth browser client (same origin, /api/auth).
import { inferAdditionalFields } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

export const authClient = createAuthClient({
  basePath: "/api/auth",
  plugins: [inferAdditionalFields({ user: { planId: { type: "string", required: false } } })],
});
