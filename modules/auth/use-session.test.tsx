// @vitest-environment jsdom
// The session the signed-in pages read: one GET /api/auth/get-session for every component reading
// it, fetched again (past the cookie cache) by refreshSession, and null when signed out. The server
// is the edge here: fetch answers as better-auth's endpoint does.
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const sessionFor = (name: string) => ({
  user: { id: "user-1", name, email: "ada@example.com", emailVerified: true, planId: "free" },
  session: { id: "session-1", expiresAt: "2030-01-01T00:00:00.000Z" },
});

/** Stubs fetch with better-auth's answers, one per request, and records the URLs asked for. */
function answerSessions(...bodies: unknown[]) {
  const urls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(bodies.shift() ?? null), { headers: { "content-type": "application/json" } });
    }),
  );
  return urls;
}

type SessionModule = typeof import("./use-session");

function UserName({ label, useSession }: { label: string; useSession: SessionModule["useSession"] }) {
  const { data, isPending } = useSession();
  return <p>{isPending ? `${label}: pending` : `${label}: ${data?.user.name ?? "signed out"}`}</p>;
}

/** A fresh copy of the module: no session fetched yet, as on a page's first load. */
async function loadSessionModule(): Promise<SessionModule> {
  vi.resetModules();
  return import("./use-session");
}

describe("the session hook", () => {
  it("asks once for every component reading it, and shows the user", async () => {
    const urls = answerSessions(sessionFor("Ada"));
    const { useSession } = await loadSessionModule();
    render(
      <>
        <UserName label="top bar" useSession={useSession} />
        <UserName label="page" useSession={useSession} />
      </>,
    );
    expect(screen.getByText("top bar: pending")).toBeTruthy();
    expect(await screen.findByText("top bar: Ada")).toBeTruthy();
    expect(screen.getByText("page: Ada")).toBeTruthy();
    expect(urls).toEqual(["/api/auth/get-session"]);
  });

  it("is null once the server says no one is signed in", async () => {
    answerSessions(null);
    const { useSession } = await loadSessionModule();
    render(<UserName label="top bar" useSession={useSession} />);
    expect(await screen.findByText("top bar: signed out")).toBeTruthy();
  });

  it("shows the new name after refreshSession, fetched past the cookie cache", async () => {
    const urls = answerSessions(sessionFor("Ada"), sessionFor("Ada Lovelace"));
    const { useSession, refreshSession } = await loadSessionModule();
    render(<UserName label="top bar" useSession={useSession} />);
    await screen.findByText("top bar: Ada");
    await act(() => refreshSession());
    expect(screen.getByText("top bar: Ada Lovelace")).toBeTruthy();
    expect(urls).toEqual(["/api/auth/get-session", "/api/auth/get-session?disableCookieCache=true"]);
  });

  it("shows the session the server handed in at once, and confirms it with one request in the background", async () => {
    const urls = answerSessions(null);
    const { useSession, SessionSeedProvider } = await loadSessionModule();
    render(
      <SessionSeedProvider session={sessionFor("Ada")}>
        <UserName label="top bar" useSession={useSession} />
        <UserName label="page" useSession={useSession} />
      </SessionSeedProvider>,
    );
    expect(screen.getByText("top bar: Ada")).toBeTruthy();
    expect(screen.getByText("page: Ada")).toBeTruthy();
    // Signed out meanwhile (another tab): the browser's answer wins.
    expect(await screen.findByText("top bar: signed out")).toBeTruthy();
    expect(urls).toEqual(["/api/auth/get-session"]);
  });
});
