import { describe, expect, it } from "vitest";
import { findSessionCookieNames, parseInvalidSessionCookiesHeader, removeSessionCookies } from "./session-cookies";

describe("session cookies", () => {
  const header = "hookmail-locale=fr; hookmail.session_token=abc.def%3D; __Secure-hookmail.session_data=x; other=1";

  it("finds better-auth's session cookies, with or without the __Secure- prefix", () => {
    expect(findSessionCookieNames(header)).toEqual(["hookmail.session_token", "__Secure-hookmail.session_data"]);
    expect(findSessionCookieNames(undefined)).toEqual([]);
    expect(findSessionCookieNames("hookmailXsession_token=1; session_token=2")).toEqual([]);
  });

  it("removes only the session cookies from a Cookie header", () => {
    expect(removeSessionCookies(header)).toBe("hookmail-locale=fr; other=1");
  });

  it("reads back only session cookie names from the guard's header", () => {
    expect(parseInvalidSessionCookiesHeader("hookmail.session_token, other, __Secure-hookmail.dont_remember")).toEqual([
      "hookmail.session_token",
      "__Secure-hookmail.dont_remember",
    ]);
    expect(parseInvalidSessionCookiesHeader(null)).toEqual([]);
  });
});
