// What a plan gives: the configured address limit, the fixed retention and price; a stored plan id
// that is missing or unknown counts as the default (free) plan.
import { describe, expect, it } from "vitest";
import { DEFAULT_PLAN_ID, PLAN_ID } from "./plans.constants";
import { getMaxDomains, getPlanLimits, toPlanId } from "./plans.models";

const settings = { plans: { [PLAN_ID.FREE]: { maxEmails: 10 }, [PLAN_ID.PRO]: { maxEmails: 100 } } };

describe("getPlanLimits", () => {
  it("gives each plan its configured address limit, its retention and its price", () => {
    expect(getPlanLimits(PLAN_ID.FREE, settings)).toEqual({ maxEmails: 10, retentionDays: 30, priceUsdMonthly: 0 });
    expect(getPlanLimits(PLAN_ID.PRO, settings)).toEqual({ maxEmails: 100, retentionDays: 90, priceUsdMonthly: 12 });
  });

  it("treats a missing or unknown plan id as the default plan", () => {
    expect(DEFAULT_PLAN_ID).toBe(PLAN_ID.FREE);
    for (const planId of [null, undefined, "", "enterprise", "PRO"]) {
      expect({ planId, plan: toPlanId(planId) }).toEqual({ planId, plan: DEFAULT_PLAN_ID });
      expect(getPlanLimits(planId, settings)).toEqual(getPlanLimits(DEFAULT_PLAN_ID, settings));
    }
  });
});

describe("getMaxDomains", () => {
  it("allows one domain on the free plan and twenty on pro, and counts an unknown plan as free", () => {
    expect(getMaxDomains(PLAN_ID.FREE)).toBe(1);
    expect(getMaxDomains(PLAN_ID.PRO)).toBe(20);
    expect(getMaxDomains("enterprise")).toBe(1);
    expect(getMaxDomains(null)).toBe(1);
  });
});
