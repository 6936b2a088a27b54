import { withCaller } from "@/modules/auth/with-caller";
import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";
import { formatDeliveryAttemptForApi } from "@/modules/processings/processings.models";
import { listDeliveryAttempts } from "@/modules/processings/processings.usecases";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

export const GET = withCaller<Params>(async ({ caller, params }) => {
  const { deliveryAttempts } = await listDeliveryAttempts({
    ...params,
    userId: caller.userId,
    repository: await getProcessingsRepository(),
  });
  return Response.json({ deliveryAttempts: deliveryAttempts.map(formatDeliveryAttemptForApi) });
});
