import { createApiKeysRepository } from "@/modules/api-keys/api-keys.repository";
import { deleteApiKey } from "@/modules/api-keys/api-keys.usecases";
import { withCaller } from "@/modules/auth/with-caller";
import { getPrisma } from "@/modules/db/db";

export const dynamic = "force-dynamic";

export const DELETE = withCaller<{ apiKeyId: string }>(
  async ({ params, caller }) => {
    await deleteApiKey({
      userId: caller.userId,
      apiKeyId: params.apiKeyId,
      repository: createApiKeysRepository(await getPrisma()),
    });
    return new Response(null, { status: 204 });
  },
  { allow: ["session"] },
);
