import { withCaller } from "@/modules/auth/with-caller";
import { getBillingDependencies, withBillingEnabled } from "@/modules/billing/billing.dependencies";
import { getCheckoutSessionStatus } from "@/modules/billing/billing.usecases";

export const dynamic = "force-dynamic";

export const GET = withBillingEnabled(
  withCaller<{ sessionId: string }>(
    async ({ params, caller }) => {
      const { isPaid, status } = await getCheckoutSessionStatus({
        userId: caller.userId,
        sessionId: params.sessionId,
        ...(await getBillingDependencies()),
      });
      return Response.json({ isPaid, status });
    },
    { allow: ["session"] },
  ),
);
