import { withCaller } from "@/modules/auth/with-caller";
import { getBillingDependencies, withBillingEnabled } from "@/modules/billing/billing.dependencies";
import { createCustomerPortalSession } from "@/modules/billing/billing.usecases";

export const dynamic = "force-dynamic";

export const GET = withBillingEnabled(
  withCaller(
    async ({ caller }) => {
      const { portalUrl } = await createCustomerPortalSession({ userId: caller.userId, ...(await getBillingDependencies()) });
      return Response.json({ portalUrl });
    },
    { allow: ["session"] },
  ),
);
