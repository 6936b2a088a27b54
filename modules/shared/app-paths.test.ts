import { describe, expect, it } from "vitest";
import { emailCallbackPath, isWithinPath, messagePath } from "./app-paths";

describe("isWithinPath", () => {
  it("makes the inbox tab the current one on a mail's page, which lies within the inbox", () => {
    const inbox = emailCallbackPath("ecb_1", "inbox");
    expect(isWithinPath(inbox, inbox)).toBe(true);
    expect(isWithinPath(messagePath("ecb_1", "ep_1"), inbox)).toBe(true);
    expect(isWithinPath(messagePath("ecb_1", "ep_1"), emailCallbackPath("ecb_1", "settings"))).toBe(false);
  });

  it("does not take a longer sibling for a page within (inboxes is not within inbox)", () => {
    expect(isWithinPath("/email-callbacks/ecb_1/inboxes", emailCallbackPath("ecb_1", "inbox"))).toBe(false);
  });
});
