// The better-auth browser client (same origin, /api/auth), for the auth pages' forms and for logging
// out. The signed-in pages read the session through use-session.ts, not through this client (its
// code is not part of their first load): what changes the session here has that session fetched again.
import { inferAdditionalFields } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";
import { refreshSession } from "./use-session";

/** The auth routes whose success changes the session (those on which better-auth's own client refetches it). */
const SESSION_CHANGING_PATH =
  /\/api\/auth\/(sign-in|sign-up|sign-out|update-user|update-session|verify-email|change-email|change-password|delete-user|revoke-)/;

export const authClient = createAuthClient({
  basePath: "/api/auth",
  plugins: [inferAdditionalFields({ user: { planId: { type: "string", required: false } } })],
  fetchOptions: {
    onSuccess: ({ request }) => {
      if (SESSION_CHANGING_PATH.test(String(request.url))) void refreshSession();
    },
  },
});
