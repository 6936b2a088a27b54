import { getBillingDependencies } from "@/modules/billing/billing.dependencies";
import { getCheckoutSessionStatus } from "@/modules/billing/billing.usecases";
import { withBillingEnabled, withCaller } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

export const GET = withBillingEnabled(
  withCaller<{ sessionId: string }>(
    async ({ params, caller, services }) => {
      const { isPaid, status } = await getCheckoutSessionStatus({
        userId: caller.userId,
        sessionId: params.sessionId,
        ...(await getBillingDependencies(services)),
      });
      return Response.json({ isPaid, status });
    },
    { allow: ["session"] },
  ),
);
