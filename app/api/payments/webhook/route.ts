import { STRIPE_SIGNATURE_HEADER } from "@/modules/billing/billing.constants";
import { getBillingDependencies } from "@/modules/billing/billing.dependencies";
import { handleStripeWebhook } from "@/modules/billing/billing.usecases";
import { withBillingEnabled, withErrors } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

// The signature is computed over the exact bytes Stripe sent: read the raw body, never re-serialised JSON.
export const POST = withBillingEnabled(
  withErrors(async ({ request, services }) => {
    const payload = await request.text();
    const signature = request.headers.get(STRIPE_SIGNATURE_HEADER);
    await handleStripeWebhook({ payload, signature, ...(await getBillingDependencies(services)) });
    return Response.json({ received: true });
  }),
);
