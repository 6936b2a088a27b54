import { readEnvelopeFromHeaders, readMessageHeaderFieldsOrThrow } from "@/modules/inbound/providers/message-headers";
import { readBodyWithLimit } from "@/modules/inbound/providers/read-body-with-limit";
import { getProcessingsRepository, getRateLimitRepository } from "@/modules/processings/processings.dependencies";
import { sendTestMail } from "@/modules/processings/processings.usecases";
import { withCaller } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

/** A body sent as message/rfc822 is the message itself (at most MAX_MESSAGE_BYTES); otherwise the sample mail is sent. */
async function readOwnMessage(request: Request, maxMessageBytes: number) {
  const contentType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (contentType !== "message/rfc822") return undefined;
  const raw = await readBodyWithLimit(request, maxMessageBytes);
  return { raw, from: readEnvelopeFromHeaders(readMessageHeaderFieldsOrThrow(raw, "The message")).from };
}

export const POST = withCaller<{ emailCallbackId: string }>(async ({ request, caller, params, services }) => {
  const { accepted } = await sendTestMail({
    emailCallbackId: params.emailCallbackId,
    userId: caller.userId,
    repository: await getProcessingsRepository(services),
    rateLimits: await getRateLimitRepository(services),
    receiveMessage: (await services.inbound()).receive,
    message: await readOwnMessage(request, services.config.inbound.maxMessageBytes),
  });
  return Response.json({ accepted }, { status: 202 });
});
