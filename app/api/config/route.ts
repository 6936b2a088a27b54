import { formatPublicConfig } from "@/modules/config/config.models";
import { withErrors } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

export const GET = withErrors(async ({ services }) => Response.json(formatPublicConfig(services.config)));
