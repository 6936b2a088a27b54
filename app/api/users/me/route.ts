import { getPrisma } from "@/modules/db/db";
import { parseJsonBody, withCaller } from "@/modules/shared/api/route-handler";
import { formatUserForApi } from "@/modules/users/users.models";
import { createUsersRepository } from "@/modules/users/users.repository";
import { updateUserSchema } from "@/modules/users/users.schemas";
import { updateUser } from "@/modules/users/users.usecases";

export const dynamic = "force-dynamic";

export const GET = withCaller(async ({ caller }) => Response.json({ user: formatUserForApi(caller.user) }));

export const PUT = withCaller(async ({ request, caller }) => {
  const input = await parseJsonBody(request, updateUserSchema);
  const { user } = await updateUser({ userId: caller.userId, input, repository: createUsersRepository(await getPrisma()) });
  return Response.json({ user: formatUserForApi(user) });
});
