// zod schemas of the payments routes: the checkout request body and the session id of the path.
import { z } from "zod";
import { CHECKOUT_PLAN_IDS } from "@/modules/plans/plans.constants";

export const createCheckoutSessionSchema = z.object({ planId: z.enum(CHECKOUT_PLAN_IDS) });
export type CreateCheckoutSessionInput = z.infer<typeof createCheckoutSessionSchema>;

/** A Checkout Session id as Stripe issues them (cs_test_…, cs_live_…). */
export const checkoutSessionIdSchema = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/);
