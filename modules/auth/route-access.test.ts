import { describe, expect, it } from "vitest";
import { getRouteAccess } from "./route-access";

describe("getRouteAccess", () => {
  it("guards the dashboard pages", () => {
    for (const path of ["/", "/email-callbacks", "/email-callbacks/ecb_1/inbox", "/api-keys/create", "/settings", "/webhooks"]) {
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

  it("leaves the checkout pages and unknown routes unguarded, so unknown routes show the 404 page", () => {
    for (const path of ["/checkout-success", "/checkout-cancel", "/nowhere", "/settingsx", "/loginx"]) {
      expect(getRouteAccess(path)).toBe("any");
    }
  });
});
