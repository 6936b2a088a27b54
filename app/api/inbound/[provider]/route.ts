// POST /api/inbound/{raw|postmark|mailgun|sendgrid}: a provider hands over a message (README: Receiving mail).
// 200 {"accepted": N} once stored; 400 not mail, 401 bad credentials, 404 unknown provider,
// 413 over MAX_MESSAGE_BYTES, 503 INBOUND_SECRET (or, for Mailgun, MAILGUN_SIGNING_KEY) unset.
import { getSharedMailgunTokens, receiveFromProvider } from "@/modules/inbound/providers/inbound-providers.usecases";
import { withErrors } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

export const POST = withErrors<{ provider: string }>(async ({ request, params, services }) => {
  const { accepted } = await receiveFromProvider({
    providerName: params.provider,
    request,
    settings: services.config.inbound,
    receive: (await services.inbound()).receive,
    mailgunTokens: getSharedMailgunTokens(services.database),
    metrics: services.metrics(),
    spool: services.spool(),
  });
  return Response.json({ accepted });
});
