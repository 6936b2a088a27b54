import { withCaller } from "@/modules/auth/with-caller";
import { receiveMessage } from "@/modules/inbound/receive-message";
import { getProcessingsRepository, getRateLimitRepository } from "@/modules/processings/processings.dependencies";
import { sendTestMail } from "@/modules/processings/processings.usecases";

export const dynamic = "force-dynamic";

export const POST = withCaller<{ emailCallbackId: string }>(async ({ caller, params }) => {
  const { accepted } = await sendTestMail({
    emailCallbackId: params.emailCallbackId,
    userId: caller.userId,
    repository: await getProcessingsRepository(),
    rateLimits: await getRateLimitRepository(),
    receiveMessage,
  });
  return Response.json({ accepted }, { status: 202 });
});
