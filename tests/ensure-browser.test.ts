// `npm test` on a machine without Chromium (README: Test it): root on a Debian-like machine gets
// Debian's package installed; anyone else is stopped at once with one line naming what is missing
// and the command that installs it.
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without type declarations
import { DEFAULT_CHROMIUM_PATH, planBrowserSetup } from "../scripts/ensure-browser.mjs";

const machine = { chromiumPath: DEFAULT_CHROMIUM_PATH, isExecutable: false, isRoot: false, hasAptGet: true, isDefaultPath: true };

describe("the browser the tests need", () => {
  it("is used as it is when the binary is there", () => {
    expect(planBrowserSetup({ ...machine, isExecutable: true })).toEqual({ action: "ready" });
  });

  it("is installed from Debian's packages by root on a machine with apt-get", () => {
    expect(planBrowserSetup({ ...machine, isRoot: true })).toEqual({
      action: "install",
      packages: ["chromium", "fonts-dejavu-core"],
    });
  });

  it("stops with one line naming the path and the install command for anyone else", () => {
    const plan = planBrowserSetup(machine);
    expect(plan.action).toBe("stop");
    expect(plan.message).toBe(
      "The browser tests need Chromium at /usr/bin/chromium, which is missing: sudo apt-get install chromium fonts-dejavu-core.",
    );
  });

  it("never installs over a CHROMIUM_PATH of the user's own, and says how to go back to the default", () => {
    const plan = planBrowserSetup({ ...machine, chromiumPath: "/opt/chrome/chrome", isDefaultPath: false, isRoot: true });
    expect(plan.action).toBe("stop");
    expect(plan.message).toContain("/opt/chrome/chrome");
    expect(plan.message).toContain("unset CHROMIUM_PATH");
  });

  it("names another way where there is no apt-get", () => {
    expect(planBrowserSetup({ ...machine, hasAptGet: false, isRoot: true }).message).toContain("set CHROMIUM_PATH");
  });
});
