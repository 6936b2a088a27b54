import { answerEmailCallbackList } from "@/modules/email-callbacks/email-callbacks.answers";
import { getEmailCallbackDependencies } from "@/modules/email-callbacks/email-callbacks.dependencies";
import { formatEmailCallbackForApi } from "@/modules/email-callbacks/email-callbacks.models";
import { createEmailCallbackSchema } from "@/modules/email-callbacks/email-callbacks.schemas";
import { createEmailCallback } from "@/modules/email-callbacks/email-callbacks.usecases";
import { withCaller } from "@/modules/server/routes";
import { parseJsonBody } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const GET = withCaller(async ({ caller, services }) => {
  const owner = { userId: caller.userId, planId: caller.user.planId };
  return Response.json(await answerEmailCallbackList({ owner, services }));
});

export const POST = withCaller(async ({ request, caller, services }) => {
  const input = await parseJsonBody(request, createEmailCallbackSchema);
  const { repository, rules } = await getEmailCallbackDependencies(services);
  const owner = { userId: caller.userId, planId: caller.user.planId };
  const { emailCallback } = await createEmailCallback({ owner, input, rules, repository });
  return Response.json({ emailCallback: formatEmailCallbackForApi(emailCallback) }, { status: 201 });
});
