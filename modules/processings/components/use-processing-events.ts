"use client";
// Follows an address's events stream while the component is shown: each `processing` event (a mail
// arrived, a delivery ended) refreshes that address's inbox queries, and the inbox counts as live
// (no polling) while the stream is open. The browser's EventSource reconnects by itself, sending
// Last-Event-ID; after a reconnection everything is refreshed once, in case an event fell outside
// the stream's replay window (docs/webhooks.md: Live events).
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { markInboxLive } from "../live-inbox";
import { processingQueryKeys } from "../processings.query-keys";

/** Events close together (a batch of mail) cause one refresh. */
const REFRESH_DELAY_MS = 250;

export const eventsPath = (emailCallbackId: string) => `/api/email-callbacks/${encodeURIComponent(emailCallbackId)}/events`;

export function useProcessingEvents(emailCallbackId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(eventsPath(emailCallbackId));
    let takeBackLive: (() => void) | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let hasOpened = false;
    const refresh = () => {
      if (timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: processingQueryKeys.ofEmailCallback(emailCallbackId) });
      }, REFRESH_DELAY_MS);
    };
    source.addEventListener("open", () => {
      takeBackLive ??= markInboxLive(emailCallbackId);
      if (hasOpened) refresh();
      hasOpened = true;
    });
    source.addEventListener("error", () => {
      takeBackLive?.();
      takeBackLive = null;
    });
    source.addEventListener("processing", refresh);
    return () => {
      source.close();
      takeBackLive?.();
      if (timer !== null) clearTimeout(timer);
    };
  }, [emailCallbackId, queryClient]);
}
