import { withCaller } from "@/modules/shared/api/route-handler";
import { formatUserForApi } from "@/modules/users/users.models";

export const dynamic = "force-dynamic";

export const GET = withCaller(async ({ caller }) => Response.json({ user: formatUserForApi(caller.user) }));
