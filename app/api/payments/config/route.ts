import { getBillingPlans } from "@/modules/billing/billing.usecases";
import { withBillingEnabled, withErrors } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

export const GET = withBillingEnabled(withErrors(async ({ services }) => Response.json(getBillingPlans(services.config))));
