// POST /api/inbound/mailgun: a Mailgun route's forward() POST, parsed fields or (from a route URL
// ending in "mime") `body-mime`, as multipart/form-data or urlencoded. Authenticated by Mailgun's
// signature: timestamp within 5 minutes, HMAC-SHA256 of timestamp + token with
// MAILGUN_SIGNING_KEY, and a token never used before (the mailgun_token table, shared by every
// process: the signature does not cover the body, so a replayed token could carry any body).
//
// The credentials are fields of the body itself. Mailgun posts them before `body-mime` and the
// attachments, after the text fields (body-plain, body-html, stripped-*): the body is read and
// parsed incrementally, and a body whose first MAILGUN_CREDENTIALS_PREFIX_BYTES hold no valid
// signature is refused (401) without reading the rest (docs/security.md).

import { type ComposedAttachment, composeRawMessage } from "./compose-message";
import { type FormPart, findFormPart, parseFormBody, readFormText } from "./form-body";
import { isMailgunSignatureValid, isMailgunTimestampFresh, type MailgunTokenRegistry } from "./inbound-auth";
import { MAILGUN_CREDENTIALS_PREFIX_BYTES } from "./inbound-providers.constants";
import {
  createInboundInvalidMessageError,
  createInboundNotConfiguredError,
  createInboundUnauthorizedError,
} from "./inbound-providers.errors";
import type { InboundMessage, InboundProvider } from "./inbound-providers.types";
import { mailgunContentIdMapSchema, mailgunMessageHeadersSchema } from "./mailgun.schemas";
import { type HeaderField, parseAddressList, parseEnvelopeSender } from "./message-headers";
import { readProviderSpf } from "./provider-spf";
import { takeOrComposeMessage, withEnvelope } from "./provider-steps";
import { readProviderBody } from "./read-body-with-limit";

export const mailgunProvider: InboundProvider = {
  name: "mailgun",
  async readMessage({ request, settings, nowMs, mailgunTokens }) {
    if (!settings.mailgunSigningKey) throw createInboundNotConfiguredError("MAILGUN_SIGNING_KEY");
    const contentType = request.headers.get("content-type");
    const signature = { signingKey: settings.mailgunSigningKey, nowMs, tokens: mailgunTokens };
    const body = await readProviderBody(request, settings.maxMessageBytes, "form", {
      maxPrefixBytes: MAILGUN_CREDENTIALS_PREFIX_BYTES,
      check: async (prefix, complete) => {
        const parts = parseFormBody(prefix, contentType, { partial: !complete });
        if (!hasMailgunSignatureFields(parts)) return false;
        await ensureMailgunSignature(parts, signature);
        return true;
      },
      createExhaustedError: () =>
        createInboundUnauthorizedError(
          `Mailgun's timestamp, token and signature fields are missing from the first ${MAILGUN_CREDENTIALS_PREFIX_BYTES} bytes.`,
        ),
    });
    const parts = parseFormBody(body, contentType);
    const token = await ensureMailgunSignature(parts, signature);
    const message = await parseMailgunForm(parts, settings.maxMessageBytes);
    // Claimed only now, so that a post refused above can be sent again; the claim is atomic in
    // the shared table, so of two requests with one token (in any processes) only one gets here.
    if (!(await mailgunTokens.claim(token, nowMs))) throw createReplayError();
    return { message, onReceiveFailed: () => mailgunTokens.release(token) };
  },
};

const SIGNATURE_FIELDS = ["timestamp", "token", "signature"] as const;

function hasMailgunSignatureFields(parts: readonly FormPart[]): boolean {
  return SIGNATURE_FIELDS.every((name) => findFormPart(parts, name) !== undefined);
}

/** Checks the signature fields and returns the token; throws 401 inbound.unauthorized. */
export async function ensureMailgunSignature(
  parts: readonly FormPart[],
  { signingKey, nowMs, tokens }: { signingKey: string; nowMs: number; tokens: MailgunTokenRegistry },
): Promise<string> {
  const [timestamp, token, signature] = SIGNATURE_FIELDS.map((name) => readFormText(parts, name)?.trim());
  if (!timestamp || !token || !signature) {
    throw createInboundUnauthorizedError("Mailgun's timestamp, token and signature fields are missing.");
  }
  if (!isMailgunSignatureValid({ timestamp, token, signature }, signingKey)) {
    throw createInboundUnauthorizedError("Mailgun's signature does not match MAILGUN_SIGNING_KEY.");
  }
  if (!isMailgunTimestampFresh(timestamp, nowMs)) {
    throw createInboundUnauthorizedError("Mailgun's timestamp is more than 5 minutes away from now.");
  }
  if (await tokens.has(token, nowMs)) throw createReplayError();
  return token;
}

const createReplayError = () => createInboundUnauthorizedError("This Mailgun token was already used.");

export async function parseMailgunForm(parts: readonly FormPart[], maxMessageBytes: number): Promise<InboundMessage> {
  const headers = readMessageHeaders(parts);
  const bodyMime = findFormPart(parts, "body-mime")?.data;
  const raw = await takeOrComposeMessage(bodyMime, "body-mime", () => composeMailgunMessage(parts, headers), maxMessageBytes);
  const sender = readFormText(parts, "sender");
  return withEnvelope(raw, {
    sender: sender === undefined ? undefined : parseEnvelopeSender(sender),
    recipientLists: [parseAddressList([readFormText(parts, "recipient")])],
    noRecipient: "the Mailgun post names no recipient.",
    spf: readProviderSpf(readFormText(parts, "X-Mailgun-Spf")),
  });
}

function readMessageHeaders(parts: readonly FormPart[]): HeaderField[] {
  const json = readFormText(parts, "message-headers");
  if (!json) return [];
  const parsed = mailgunMessageHeadersSchema.safeParse(parseJson(json));
  if (!parsed.success) {
    throw createInboundInvalidMessageError("message-headers is not a JSON list of [name, value] pairs.");
  }
  return parsed.data.flatMap(([name, value]) => (typeof value === "string" ? [{ name, value }] : []));
}

/** The message rebuilt from the parsed fields; 400 when the post has none of them. */
function composeMailgunMessage(parts: readonly FormPart[], headers: readonly HeaderField[]): Promise<Buffer> {
  if (!readFormText(parts, "from") && !readFormText(parts, "sender") && headers.length === 0) {
    throw createInboundInvalidMessageError("a Mailgun post needs body-mime, or the from/sender and message fields.");
  }
  const header = (name: string) => headers.find((field) => field.name.toLowerCase() === name)?.value;
  return composeRawMessage({
    from: readFormText(parts, "from") || header("from"),
    to: header("to") || readFormText(parts, "recipient"),
    cc: header("cc"),
    subject: readFormText(parts, "subject") ?? header("subject"),
    messageId: header("message-id"),
    date: header("date"),
    text: readFormText(parts, "body-plain"),
    html: readFormText(parts, "body-html"),
    headers,
    attachments: readMailgunAttachments(parts),
  });
}

/** The files `attachment-1` … `attachment-N`, with their Content-ID from `content-id-map`. */
function readMailgunAttachments(parts: readonly FormPart[]): ComposedAttachment[] {
  const json = readFormText(parts, "content-id-map");
  const contentIdMap = json ? mailgunContentIdMapSchema.safeParse(parseJson(json)) : undefined;
  const contentIdByField = new Map(
    Object.entries(contentIdMap?.success ? contentIdMap.data : {}).map(([contentId, field]) => [field, contentId]),
  );
  return parts
    .filter(({ name }) => /^attachment-\d+$/.test(name))
    .sort((first, second) => attachmentNumber(first.name) - attachmentNumber(second.name))
    .map((part) => ({
      filename: part.filename,
      contentType: part.contentType,
      content: part.data,
      contentId: contentIdByField.get(part.name),
    }));
}

const attachmentNumber = (name: string) => Number(name.slice(name.lastIndexOf("-") + 1));

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
