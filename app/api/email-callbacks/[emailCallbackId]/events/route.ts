import { isCallerCurrent } from "@/modules/auth/caller";
import { withCaller } from "@/modules/auth/with-caller";
import { EVENT_STREAM_HEADERS } from "@/modules/events/events.constants";
import { getEventsDependencies } from "@/modules/events/events.dependencies";
import { eventStreamQuerySchema, parseLastEventId } from "@/modules/events/events.schemas";
import { openProcessingEventStream } from "@/modules/events/events.usecases";
import { parseSearchParams } from "@/modules/shared/api/route-handler";
import { getLogger } from "@/modules/shared/logging/logger";

export const dynamic = "force-dynamic";

export const GET = withCaller<{ emailCallbackId: string }>(async ({ request, caller, params }) => {
  const { include } = parseSearchParams(request, eventStreamQuerySchema);
  const stream = await openProcessingEventStream({
    emailCallbackId: params.emailCallbackId,
    userId: caller.userId,
    includeWebhook: include === "webhook",
    lastEventId: parseLastEventId(request.headers.get("last-event-id")),
    signal: request.signal,
    apiKeyId: caller.via === "api-key" ? caller.apiKeyId : null,
    isCallerValid: () => isCallerCurrent(caller),
    ...(await getEventsDependencies()),
    logger: getLogger(),
  });
  return new Response(stream, { headers: EVENT_STREAM_HEADERS });
});
