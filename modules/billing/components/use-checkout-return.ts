"use client";
// Checkout opens in a new tab (openInNewTab); when the user comes back to this one (it is shown
// again or regains focus) the plan may have changed: `onReturn` runs once, and the session (which
// carries the plan) and the page's queries are fetched again, so no stale "Upgrade to pro" stays.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { refreshSession } from "@/modules/auth/use-session";

/** Answers the function to call once the checkout tab has been opened. */
export function useCheckoutReturn(onReturn: () => void): () => void {
  const queryClient = useQueryClient();
  const [isAwaitingReturn, setIsAwaitingReturn] = useState(false);
  const onReturnRef = useRef(onReturn);
  onReturnRef.current = onReturn;

  useEffect(() => {
    if (!isAwaitingReturn) return;
    const handleReturn = () => {
      if (document.visibilityState !== "visible") return;
      setIsAwaitingReturn(false);
      onReturnRef.current();
      void refreshSession();
      void queryClient.invalidateQueries();
    };
    document.addEventListener("visibilitychange", handleReturn);
    window.addEventListener("focus", handleReturn);
    return () => {
      document.removeEventListener("visibilitychange", handleReturn);
      window.removeEventListener("focus", handleReturn);
    };
  }, [isAwaitingReturn, queryClient]);

  return () => setIsAwaitingReturn(true);
}
