import { formatApiKeyForApi } from "@/modules/api-keys/api-keys.models";
import { createApiKeysRepository } from "@/modules/api-keys/api-keys.repository";
import { createApiKeySchema } from "@/modules/api-keys/api-keys.schemas";
import { createApiKey, listApiKeys } from "@/modules/api-keys/api-keys.usecases";
import { withCaller } from "@/modules/server/routes";
import { parseJsonBody } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

const SESSION_ONLY = { allow: ["session"] } as const;

export const GET = withCaller(async ({ caller, services }) => {
  const { apiKeys } = await listApiKeys({ userId: caller.userId, repository: createApiKeysRepository(await services.prisma()) });
  return Response.json({ apiKeys: apiKeys.map(formatApiKeyForApi) });
}, SESSION_ONLY);

export const POST = withCaller(async ({ request, caller, services }) => {
  const input = await parseJsonBody(request, createApiKeySchema);
  const { apiKey, token } = await createApiKey({
    userId: caller.userId,
    input,
    repository: createApiKeysRepository(await services.prisma()),
  });
  return Response.json({ apiKey: formatApiKeyForApi(apiKey), token }, { status: 201 });
}, SESSION_ONLY);
