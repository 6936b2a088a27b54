import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";
import { formatDeliveryAttemptForApi } from "@/modules/processings/processings.models";
import { listDeliveryAttempts } from "@/modules/processings/processings.usecases";
import { withCaller } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

export const GET = withCaller<Params>(async ({ caller, params, services }) => {
  const { deliveryAttempts } = await listDeliveryAttempts({
    ...params,
    userId: caller.userId,
    repository: await getProcessingsRepository(services),
  });
  return Response.json({ deliveryAttempts: deliveryAttempts.map(formatDeliveryAttemptForApi) });
});
