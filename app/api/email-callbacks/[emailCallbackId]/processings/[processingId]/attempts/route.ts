import { answerDeliveryAttempts } from "@/modules/processings/processings.answers";
import { withCaller } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

export const GET = withCaller<Params>(async ({ caller, params, services }) => {
  return Response.json(await answerDeliveryAttempts({ ...params, userId: caller.userId, services }));
});
