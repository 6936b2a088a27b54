// Prisma access to the billing fields of users (plan and Stripe customer). No rules here.
import type { PrismaClient } from "@/modules/db/generated/client";

export type BillingUserRecord = {
  id: string;
  email: string;
  name: string;
  planId: string;
  stripeCustomerId: string | null;
};

const BILLING_USER_FIELDS = { id: true, email: true, name: true, planId: true, stripeCustomerId: true } as const;

export function createBillingRepository(prisma: PrismaClient) {
  return {
    findBillingUserById: (userId: string): Promise<BillingUserRecord | null> =>
      prisma.user.findUnique({ where: { id: userId }, select: BILLING_USER_FIELDS }),
    findBillingUserByStripeCustomerId: (stripeCustomerId: string): Promise<BillingUserRecord | null> =>
      prisma.user.findUnique({ where: { stripeCustomerId }, select: BILLING_USER_FIELDS }),
    /** Stores the customer only when the user has none yet; answers whether it was stored. */
    setStripeCustomerIdIfMissing: async (userId: string, stripeCustomerId: string): Promise<boolean> => {
      const { count } = await prisma.user.updateMany({
        where: { id: userId, stripeCustomerId: null },
        data: { stripeCustomerId },
      });
      return count === 1;
    },
    setPlanIdByStripeCustomerId: async (stripeCustomerId: string, planId: string): Promise<number> => {
      const { count } = await prisma.user.updateMany({ where: { stripeCustomerId }, data: { planId } });
      return count;
    },
  };
}

export type BillingRepository = ReturnType<typeof createBillingRepository>;
