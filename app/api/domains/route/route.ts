import { domainRouteQuerySchema } from "@/modules/domains/domains.schemas";
import { getRoutePreviewDependencies, previewDomainRoute } from "@/modules/inbound/route-preview";
import { withCaller } from "@/modules/server/routes";
import { parseSearchParams } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const GET = withCaller(async ({ request, caller, services }) => {
  const { to } = parseSearchParams(request, domainRouteQuerySchema);
  const { repository } = await getRoutePreviewDependencies(services);
  return Response.json(await previewDomainRoute({ userId: caller.userId, to, repository }));
});
