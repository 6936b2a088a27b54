// POST /api/inbound/{raw|postmark|mailgun|sendgrid}: a provider hands over a message (README: Receiving mail).
// 200 {"accepted": N} once stored; 400 not mail, 401 bad credentials, 404 unknown provider,
// 413 over MAX_MESSAGE_BYTES, 503 INBOUND_SECRET (or, for Mailgun, MAILGUN_SIGNING_KEY) unset.
import { getConfig } from "@/modules/config/config";
import { receiveFromProvider } from "@/modules/inbound/providers/inbound-providers.usecases";
import { receiveMessage } from "@/modules/inbound/receive-message";
import { withErrors } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const POST = withErrors<{ provider: string }>(async ({ request, params }) => {
  const { accepted } = await receiveFromProvider({
    providerName: params.provider,
    request,
    settings: getConfig().inbound,
    receive: receiveMessage,
  });
  return Response.json({ accepted });
});
