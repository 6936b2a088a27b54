import { isCallerCurrent } from "@/modules/auth/caller";
import { EVENT_STREAM_HEADERS } from "@/modules/events/events.constants";
import { getEventsDependencies } from "@/modules/events/events.dependencies";
import { eventStreamQuerySchema, parseLastEventId } from "@/modules/events/events.schemas";
import { openProcessingEventStream } from "@/modules/events/events.usecases";
import { withCaller } from "@/modules/server/routes";
import { parseSearchParams } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const GET = withCaller<{ emailCallbackId: string }>(async ({ request, caller, params, services }) => {
  const { include, endpoint } = parseSearchParams(request, eventStreamQuerySchema);
  const stream = await openProcessingEventStream({
    emailCallbackId: params.emailCallbackId,
    userId: caller.userId,
    includeWebhook: include === "webhook",
    endpointId: endpoint ?? null,
    lastEventId: parseLastEventId(request.headers.get("last-event-id")),
    signal: request.signal,
    apiKeyId: caller.via === "api-key" ? caller.apiKeyId : null,
    isCallerValid: () => isCallerCurrent(caller, services),
    ...(await getEventsDependencies(services)),
    logger: services.logger,
  });
  return new Response(stream, { headers: EVENT_STREAM_HEADERS });
});
