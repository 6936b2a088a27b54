import { resolveRequestLocale } from "@/modules/i18n/request-locale";
import { withCaller } from "@/modules/server/routes";
import { parseJsonBody } from "@/modules/shared/api/route-handler";
import { formatUserForApi } from "@/modules/users/users.models";
import { createUsersRepository } from "@/modules/users/users.repository";
import { updateUserSchema } from "@/modules/users/users.schemas";
import { getUserOrThrow, updateUser } from "@/modules/users/users.usecases";

export const dynamic = "force-dynamic";

const SESSION_ONLY = { allow: ["session"] } as const;

export const GET = withCaller(async ({ caller, services }) => {
  const { user } = await getUserOrThrow({ userId: caller.userId, repository: createUsersRepository(await services.prisma()) });
  return Response.json({ user: formatUserForApi(user) });
}, SESSION_ONLY);

export const PUT = withCaller(async ({ request, caller, services }) => {
  const input = await parseJsonBody(request, updateUserSchema);
  const { user } = await updateUser({
    userId: caller.userId,
    input,
    locale: resolveRequestLocale(request),
    repository: createUsersRepository(await services.prisma()),
  });
  return Response.json({ user: formatUserForApi(user) });
}, SESSION_ONLY);
