import { describe, expect, it } from "vitest";
import { VERIFY_EMAIL_PATH } from "./auth.constants";
import { toVerificationLink } from "./verification-link";

describe("toVerificationLink", () => {
  it("sends the link back to the verification page with its own token, whatever callback the client named", () => {
    const link = new URL(
      toVerificationLink("https://hookmail.example/api/auth/verify-email?token=eyJ.a-b_c.d&callbackURL=%2Femail-callbacks"),
    );
    expect(link.origin + link.pathname).toBe("https://hookmail.example/api/auth/verify-email");
    expect(link.searchParams.get("token")).toBe("eyJ.a-b_c.d");
    expect(link.searchParams.get("callbackURL")).toBe(`${VERIFY_EMAIL_PATH}?token=eyJ.a-b_c.d`);
  });

  it("adds the callback when the link named none", () => {
    const link = new URL(toVerificationLink("http://localhost:3000/api/auth/verify-email?token=t"));
    expect(link.searchParams.get("callbackURL")).toBe(`${VERIFY_EMAIL_PATH}?token=t`);
  });
});
