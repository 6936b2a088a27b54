"use client";
// The signed-in user's session in the browser, from better-auth's GET /api/auth/get-session: one
// request shared by every component that reads it, made again by refreshSession() (the name or the
// plan changed), when the tab is shown again (at most every 5 s, as better-auth's own client does:
// a log-out in another tab shows) and when the browser is back online. better-auth's browser client
// (auth.client.ts, ~12 kB gzip) serves the auth pages' forms; the signed-in pages read the session
// here, so that it is not part of their first load. The signed-in layout reads the session on the
// server and hands it in (SessionSeedProvider): the first render shows it, and one request in the
// background confirms it (and lets better-auth extend the session's cookie, as it did on load).
import { createContext, createElement, type ReactNode, useContext, useEffect, useMemo, useSyncExternalStore } from "react";

export type SessionUser = { id: string; name: string; email: string; emailVerified: boolean; planId?: string | null };

export type Session = { user: SessionUser; session: { id: string; expiresAt: string } };

export type SessionState = {
  /** The session, or null when signed out (or while the first answer is pending). */
  data: Session | null;
  /** Until the first answer (or failure). */
  isPending: boolean;
  error: Error | null;
};

const GET_SESSION_PATH = "/api/auth/get-session";
/** Showing the tab again does not ask sooner than this after the last request. */
const REFETCH_ON_SHOW_MIN_INTERVAL_MS = 5_000;

const INITIAL_STATE: SessionState = { data: null, isPending: true, error: null };
let state: SessionState = INITIAL_STATE;
const listeners = new Set<() => void>();
/** The latest request: an older one's answer is dropped. */
let requestNumber = 0;
let inFlight: Promise<void> | null = null;
let lastRequestAt = 0;

function setState(next: SessionState) {
  state = next;
  for (const listener of listeners) listener();
}

function fetchSession({ bypassCookieCache = false } = {}): Promise<void> {
  const number = ++requestNumber;
  lastRequestAt = Date.now();
  // Signed out so far (e.g. before a sign-in): pending until the answer, as better-auth's client shows it.
  if (state.data === null && !state.isPending) setState({ ...state, isPending: true });
  const query = bypassCookieCache ? "?disableCookieCache=true" : "";
  const request = fetch(`${GET_SESSION_PATH}${query}`, { credentials: "same-origin", cache: "no-store" })
    .then(async (response) => {
      if (!response.ok) throw new Error(`GET ${GET_SESSION_PATH} answered ${response.status}`);
      const body = (await response.json()) as Session | null;
      if (number === requestNumber) setState({ data: body?.user && body.session ? body : null, isPending: false, error: null });
    })
    .catch((error: unknown) => {
      if (number !== requestNumber) return;
      // As better-auth's client: a failed first request counts as no session; a failed refresh keeps the one shown.
      setState({ data: state.data, isPending: false, error: error instanceof Error ? error : new Error(String(error)) });
    })
    .finally(() => {
      if (inFlight === request) inFlight = null;
    });
  inFlight = request;
  return request;
}

/** Fetches the session again (after the name or the plan changed); resolves once it is shown. */
export function refreshSession(): Promise<void> {
  return fetchSession({ bypassCookieCache: true });
}

function refetchOnShow() {
  if (document.visibilityState !== "visible" || Date.now() - lastRequestAt < REFETCH_ON_SHOW_MIN_INTERVAL_MS) return;
  void fetchSession();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) {
    document.addEventListener("visibilitychange", refetchOnShow);
    window.addEventListener("online", refetchOnShow);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    document.removeEventListener("visibilitychange", refetchOnShow);
    window.removeEventListener("online", refetchOnShow);
  };
}

const SessionSeedContext = createContext<SessionState | null>(null);

/** Hands the session the server read to every useSession() below, until the browser has asked itself. */
export function SessionSeedProvider({ session, children }: { session: Session; children: ReactNode }) {
  const seed = useMemo<SessionState>(() => ({ data: session, isPending: false, error: null }), [session]);
  return createElement(SessionSeedContext.Provider, { value: seed }, children);
}

/** The session: the server's seed when there is one, fetched on first use. */
export function useSession(): SessionState {
  const seed = useContext(SessionSeedContext);
  const current = useSyncExternalStore(
    subscribe,
    // Until the browser has an answer of its own (after a sign-in, its request may still be on the way).
    () => (seed && state.isPending && state.data === null ? seed : state),
    () => seed ?? INITIAL_STATE,
  );
  useEffect(() => {
    if (seed && state === INITIAL_STATE) {
      // The store starts from the seed (the same value, so nothing re-renders), then confirms it.
      state = seed;
      void fetchSession();
      return;
    }
    if (state.isPending && !inFlight) void fetchSession();
  }, [seed]);
  return current;
}
