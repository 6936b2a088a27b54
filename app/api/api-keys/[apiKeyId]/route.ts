import { createApiKeysRepository } from "@/modules/api-keys/api-keys.repository";
import { deleteApiKey } from "@/modules/api-keys/api-keys.usecases";
import { withCaller } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

export const DELETE = withCaller<{ apiKeyId: string }>(
  async ({ params, caller, services }) => {
    await deleteApiKey({
      userId: caller.userId,
      apiKeyId: params.apiKeyId,
      repository: createApiKeysRepository(await services.prisma()),
    });
    return new Response(null, { status: 204 });
  },
  { allow: ["session"] },
);
