// The signed-in pages' session on the server (docs/architecture.md: The first render): read once per
// request from its cookie, whoever asks first (the signed-in layout, a page's first data), since
// Next renders a layout and its page side by side.
import { headers } from "next/headers";
import { cache } from "react";
import { type RequestSession, readRequestSession } from "@/modules/auth/server-session";
import { getServices } from "./services";

export const readPageSession = cache(async (): Promise<RequestSession | null> => {
  return readRequestSession(await getServices().auth(), await headers());
});
