import { STRIPE_SIGNATURE_HEADER } from "@/modules/billing/billing.constants";
import { getBillingDependencies, withBillingEnabled } from "@/modules/billing/billing.dependencies";
import { handleStripeWebhook } from "@/modules/billing/billing.usecases";
import { withErrors } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

// The signature is computed over the exact bytes Stripe sent: read the raw body, never re-serialised JSON.
export const POST = withBillingEnabled(
  withErrors(async ({ request }) => {
    const payload = await request.text();
    const signature = request.headers.get(STRIPE_SIGNATURE_HEADER);
    await handleStripeWebhook({ payload, signature, ...(await getBillingDependencies()) });
    return Response.json({ received: true });
  }),
);
