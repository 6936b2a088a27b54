import { getBillingDependencies } from "@/modules/billing/billing.dependencies";
import { createCheckoutSessionSchema } from "@/modules/billing/billing.schemas";
import { createCheckoutSession } from "@/modules/billing/billing.usecases";
import { withBillingEnabled, withCaller } from "@/modules/server/routes";
import { parseJsonBody } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const POST = withBillingEnabled(
  withCaller(
    async ({ request, caller, services }) => {
      const input = await parseJsonBody(request, createCheckoutSessionSchema);
      const { checkoutUrl } = await createCheckoutSession({
        userId: caller.userId,
        input,
        ...(await getBillingDependencies(services)),
      });
      return Response.json({ checkoutUrl });
    },
    { allow: ["session"] },
  ),
);
