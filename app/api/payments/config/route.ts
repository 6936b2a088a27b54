import { withBillingEnabled } from "@/modules/billing/billing.dependencies";
import { getBillingPlans } from "@/modules/billing/billing.usecases";
import { getConfig } from "@/modules/config/config";
import { withErrors } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const GET = withBillingEnabled(withErrors(async () => Response.json(getBillingPlans(getConfig()))));
