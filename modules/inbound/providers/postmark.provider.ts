// POST /api/inbound/postmark: Postmark's inbound JSON, with `RawEmail` (used as is) or without
// (the message is rebuilt from the parsed fields); HTTP basic auth whose password is INBOUND_SECRET.

import { type AddressesInput, composeRawMessage } from "./compose-message";
import { createInboundInvalidMessageError } from "./inbound-providers.errors";
import type { InboundMessage } from "./inbound-providers.types";
import { parseAddressList, parseEnvelopeSender } from "./message-headers";
import { type PostmarkInbound, postmarkInboundSchema } from "./postmark.schemas";
import { readProviderSpf } from "./provider-spf";
import { createSecretProvider, takeOrComposeMessage, withEnvelope } from "./provider-steps";

export const postmarkProvider = createSecretProvider({
  name: "postmark",
  scheme: "basic",
  encoding: "postmark",
  parse: (body, { maxMessageBytes }) => parsePostmarkBody(body, maxMessageBytes),
});

export async function parsePostmarkBody(body: Buffer, maxMessageBytes: number): Promise<InboundMessage> {
  const payload = parsePostmarkJson(body);
  const fromAddress = payload.FromFull?.Email || payload.From;
  const hasRecipient = Boolean(payload.OriginalRecipient || payload.ToFull?.length || payload.To || payload.Cc);
  if (!payload.RawEmail && (!fromAddress || !hasRecipient)) {
    throw createInboundInvalidMessageError("a Postmark payload needs RawEmail, or From and a recipient.");
  }
  const rawEmail = payload.RawEmail ? Buffer.from(payload.RawEmail, "utf8") : undefined;
  const raw = await takeOrComposeMessage(rawEmail, "RawEmail", () => composePostmarkMessage(payload), maxMessageBytes);
  const listed = [...(payload.ToFull ?? []), ...(payload.CcFull ?? [])].map(({ Email }) => Email);
  return withEnvelope(raw, {
    sender: parseEnvelopeSender(fromAddress) ?? undefined,
    recipientLists: [
      parseAddressList([payload.OriginalRecipient]),
      parseAddressList(listed),
      parseAddressList([payload.To, payload.Cc]),
    ],
    noRecipient: "the Postmark payload names no recipient.",
    spf: readProviderSpf(payload.Headers?.find(({ Name }) => Name.toLowerCase() === "received-spf")?.Value),
  });
}

function parsePostmarkJson(body: Buffer): PostmarkInbound {
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    throw createInboundInvalidMessageError("expected Postmark's inbound JSON.");
  }
  const parsed = postmarkInboundSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw createInboundInvalidMessageError(
      `the Postmark payload is malformed${issue ? ` at ${issue.path.join(".") || "the top level"}` : ""}.`,
    );
  }
  return parsed.data;
}

function composePostmarkMessage(payload: PostmarkInbound): Promise<Buffer> {
  const headers = (payload.Headers ?? []).map(({ Name, Value }) => ({ name: Name, value: Value ?? "" }));
  const messageIdHeader = headers.find(({ name }) => name.toLowerCase() === "message-id")?.value;
  return composeRawMessage({
    from: toAddresses(payload.FromFull ? [payload.FromFull] : undefined) ?? payload.From ?? undefined,
    to: toAddresses(payload.ToFull) ?? payload.To ?? undefined,
    cc: toAddresses(payload.CcFull) ?? payload.Cc ?? undefined,
    replyTo: payload.ReplyTo ?? undefined,
    subject: payload.Subject ?? undefined,
    // Postmark's MessageID is its own id, the same on its retries; the sender's is among the headers.
    messageId: messageIdHeader || (payload.MessageID ? `<${payload.MessageID}@postmarkapp.com>` : undefined),
    date: payload.Date ?? undefined,
    text: payload.TextBody ?? undefined,
    html: payload.HtmlBody ?? undefined,
    headers,
    attachments: (payload.Attachments ?? []).map((attachment) => ({
      filename: attachment.Name ?? undefined,
      contentType: attachment.ContentType ?? undefined,
      content: Buffer.from(attachment.Content, "base64"),
      contentId: attachment.ContentID || undefined,
    })),
  });
}

function toAddresses(addresses: PostmarkInbound["ToFull"]): AddressesInput | undefined {
  const listed = (addresses ?? []).filter(({ Email }) => Email);
  return listed.length > 0 ? listed.map(({ Email, Name }) => ({ name: Name ?? "", address: Email })) : undefined;
}
