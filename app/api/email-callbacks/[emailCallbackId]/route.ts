import { answerEmailCallback } from "@/modules/email-callbacks/email-callbacks.answers";
import { getEmailCallbackDependencies } from "@/modules/email-callbacks/email-callbacks.dependencies";
import { formatEmailCallbackForApi } from "@/modules/email-callbacks/email-callbacks.models";
import { updateEmailCallbackSchema } from "@/modules/email-callbacks/email-callbacks.schemas";
import { deleteEmailCallback, updateEmailCallback } from "@/modules/email-callbacks/email-callbacks.usecases";
import { withCaller } from "@/modules/server/routes";
import { parseJsonBody } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string };

export const GET = withCaller<Params>(async ({ caller, params, services }) => {
  return Response.json(await answerEmailCallback({ emailCallbackId: params.emailCallbackId, userId: caller.userId, services }));
});

export const PUT = withCaller<Params>(async ({ request, caller, params, services }) => {
  const input = await parseJsonBody(request, updateEmailCallbackSchema);
  const { repository, rules } = await getEmailCallbackDependencies(services);
  const owner = { userId: caller.userId, planId: caller.user.planId };
  const { emailCallback } = await updateEmailCallback({ id: params.emailCallbackId, owner, input, rules, repository });
  return Response.json({ emailCallback: formatEmailCallbackForApi(emailCallback) });
});

export const DELETE = withCaller<Params>(async ({ caller, params, services }) => {
  const { repository } = await getEmailCallbackDependencies(services);
  await deleteEmailCallback({ id: params.emailCallbackId, userId: caller.userId, repository });
  return new Response(null, { status: 204 });
});
