import { describe, expect, it } from "vitest";
import { getLoginPath, getRouteAccess, isBillingPath, toSafeReturnPath } from "./route-access";

describe("getRouteAccess", () => {
  it("guards the dashboard pages", () => {
    for (const path of [
      "/",
      "/email-callbacks",
      "/email-callbacks/ecb_1/inbox",
      "/api-keys/create",
      "/domains",
      "/settings",
      "/webhooks",
    ]) {
      expect(getRouteAccess(path)).toBe("private");
    }
    expect(getRouteAccess("/api-reference")).toBe("private");
  });

  it("keeps the sign-in pages for signed-out visitors", () => {
    for (const path of ["/login", "/register", "/request-password-reset", "/reset-password", "/email-validation-required"]) {
      expect(getRouteAccess(path)).toBe("public-only");
    }
  });

  it("sends a verification link that has just signed the visitor in on from /verify-email to the dashboard", () => {
    expect(getRouteAccess("/verify-email")).toBe("public-only");
  });

  it("sends a signed-out visitor of the checkout pages to log in", () => {
    for (const path of ["/checkout-success", "/checkout-cancel"]) expect(getRouteAccess(path)).toBe("private");
  });

  it("names the checkout pages as billing's, which an instance without billing does not have", () => {
    for (const path of ["/checkout-success", "/checkout-cancel"]) expect(isBillingPath(path)).toBe(true);
    for (const path of ["/checkout-successx", "/settings", "/"]) expect(isBillingPath(path)).toBe(false);
  });

  it("leaves unknown routes unguarded, so they show the 404 page", () => {
    for (const path of ["/nowhere", "/settingsx", "/loginx", "/checkout-successx"]) {
      expect(getRouteAccess(path)).toBe("any");
    }
  });
});

describe("toSafeReturnPath", () => {
  it("goes back to a private page of this site with its query and fragment", () => {
    expect(toSafeReturnPath("/email-callbacks/ecb_1/inbox?status=error")).toBe("/email-callbacks/ecb_1/inbox?status=error");
    expect(toSafeReturnPath("/email-callbacks/ecb_1/inbox/prc_1#attempts")).toBe("/email-callbacks/ecb_1/inbox/prc_1#attempts");
    expect(toSafeReturnPath("/checkout-success?sessionId=cs_1")).toBe("/checkout-success?sessionId=cs_1");
  });

  it("never leads to another site: protocol-relative, backslash, absolute and javascript: values are refused", () => {
    for (const value of [
      "//evil.example",
      "//evil.example/email-callbacks",
      "/\\evil.example",
      "\\\\evil.example",
      "/\\/evil.example",
      "https://evil.example/email-callbacks",
      "http:/evil.example",
      "javascript:alert(1)",
      "JavaScript:alert(1)//",
      "data:text/html,<script>alert(1)</script>",
      "evil.example/email-callbacks",
    ]) {
      expect(toSafeReturnPath(value), value).toBeNull();
    }
  });

  it("refuses control characters, which browsers drop (/<tab>/host is //host)", () => {
    for (const value of ["/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "/email-callbacks\u0000"]) {
      expect(toSafeReturnPath(value), JSON.stringify(value)).toBeNull();
    }
  });

  it("refuses pages that are not private (a sign-in page would loop) and paths that resolve out of the private ones", () => {
    for (const value of ["/login", "/register?returnTo=/", "/email-callbacks/../login", "/nowhere", "/api/users/me"]) {
      expect(toSafeReturnPath(value), value).toBeNull();
    }
  });

  it("refuses nothing at all and an over-long value", () => {
    expect(toSafeReturnPath(null)).toBeNull();
    expect(toSafeReturnPath("")).toBeNull();
    expect(toSafeReturnPath(`/email-callbacks?q=${"a".repeat(3000)}`)).toBeNull();
  });
});

describe("getLoginPath", () => {
  it("names the page asked for, so that signing in leads back to it", () => {
    expect(getLoginPath({ pathname: "/email-callbacks/ecb_1/inbox", search: "?status=error" })).toBe(
      "/login?returnTo=%2Femail-callbacks%2Fecb_1%2Finbox%3Fstatus%3Derror",
    );
  });

  it("names nothing for the home page", () => {
    expect(getLoginPath({ pathname: "/", search: "" })).toBe("/login");
  });
});
