import { withCaller } from "@/modules/auth/with-caller";
import { getBillingDependencies, withBillingEnabled } from "@/modules/billing/billing.dependencies";
import { createCheckoutSessionSchema } from "@/modules/billing/billing.schemas";
import { createCheckoutSession } from "@/modules/billing/billing.usecases";
import { parseJsonBody } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const POST = withBillingEnabled(
  withCaller(
    async ({ request, caller }) => {
      const input = await parseJsonBody(request, createCheckoutSessionSchema);
      const { checkoutUrl } = await createCheckoutSession({ userId: caller.userId, input, ...(await getBillingDependencies()) });
      return Response.json({ checkoutUrl });
    },
    { allow: ["session"] },
  ),
);
