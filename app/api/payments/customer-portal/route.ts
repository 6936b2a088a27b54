import { getBillingDependencies } from "@/modules/billing/billing.dependencies";
import { createCustomerPortalSession } from "@/modules/billing/billing.usecases";
import { withBillingEnabled, withCaller } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

export const GET = withBillingEnabled(
  withCaller(
    async ({ caller, services }) => {
      const { portalUrl } = await createCustomerPortalSession({
        userId: caller.userId,
        ...(await getBillingDependencies(services)),
      });
      return Response.json({ portalUrl });
    },
    { allow: ["session"] },
  ),
);
