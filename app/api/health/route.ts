import { getHealth } from "@/modules/server/health";
import { getServices } from "@/modules/server/services";

export const dynamic = "force-dynamic";

export async function GET() {
  const health = await getHealth(getServices().database);
  return Response.json(health, { status: health.status === "ok" ? 200 : 503 });
}
