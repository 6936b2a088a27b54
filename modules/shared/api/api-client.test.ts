import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiFetch } from "./api-client";

function stubFetch(...responses: Response[]) {
  const fetchMock = vi.fn(async () => responses.shift() ?? new Response(null, { status: 599 }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

function stubWindow(pathname: string) {
  const assign = vi.fn();
  vi.stubGlobal("window", { location: { pathname, assign } });
  return assign;
}

const errorBody = (code: string, message: string) => Response.json({ error: { code, message } }, { status: 401 });

afterEach(() => vi.unstubAllGlobals());

describe("apiFetch", () => {
  it("sends the browser to /login on any 401 and throws the server's code", async () => {
    const assign = stubWindow("/email-callbacks");
    stubFetch(errorBody("auth.unauthorized", "You must be signed in to do this."));
    await expect(apiFetch("/api/users/me")).rejects.toMatchObject({ status: 401, code: "auth.unauthorized" });
    expect(assign).toHaveBeenCalledWith("/login");
  });

  it("reads the error code at data.error.code", async () => {
    stubWindow("/");
    stubFetch(Response.json({ error: { code: "email_callback.already_exists", message: "taken" } }, { status: 409 }));
    const error = await apiFetch("/api/email-callbacks", { method: "POST", body: {} }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "email_callback.already_exists", message: "taken" });
  });

  it("retries a GET once on a transient status", async () => {
    const fetchMock = stubFetch(new Response(null, { status: 503 }), Response.json({ ok: true }));
    await expect(apiFetch("/api/config")).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("never retries a write", async () => {
    stubWindow("/");
    const fetchMock = stubFetch(new Response(null, { status: 503 }), Response.json({ ok: true }));
    await expect(apiFetch("/api/api-keys", { method: "POST", body: { name: "ci" } })).rejects.toMatchObject({ status: 503 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"] as const)(
    "declares Content-Type: application/json on every %s, with a body or without",
    async (method) => {
      stubWindow("/");
      const fetchMock = stubFetch(new Response(null, { status: 204 }), new Response(null, { status: 204 }));
      await apiFetch("/api/x", { method });
      await apiFetch("/api/x", { method, body: { a: 1 } });
      for (const [, init] of fetchMock.mock.calls as unknown as [string, RequestInit][]) {
        expect(new Headers(init.headers).get("content-type")).toBe("application/json");
        expect(init.credentials).toBe("include");
      }
      expect(fetchMock).toHaveBeenCalledTimes(2);
    },
  );

  it("does not retry a GET on a client error", async () => {
    stubWindow("/");
    const fetchMock = stubFetch(new Response(null, { status: 404 }), Response.json({ ok: true }));
    await expect(apiFetch("/api/email-callbacks/ecb_x")).rejects.toMatchObject({ status: 404 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
