import { getConfig } from "@/modules/config/config";
import { formatPublicConfig } from "@/modules/config/config.models";
import { withErrors } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const GET = withErrors(async () => Response.json(formatPublicConfig(getConfig())));
