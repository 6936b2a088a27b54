// POST /api/inbound/sendgrid: SendGrid Inbound Parse, the default parsed post or, with "POST the
// raw, full MIME message", the `email` field; HTTP basic auth whose password is INBOUND_SECRET.

import type { z } from "zod";
import { type ComposedAttachment, composeRawMessage } from "./compose-message";
import { type FormPart, findFormPart, parseFormBody, readFormText } from "./form-body";
import { createInboundInvalidMessageError } from "./inbound-providers.errors";
import type { InboundMessage } from "./inbound-providers.types";
import { parseAddressList, parseEnvelopeSender, readHeaderFields } from "./message-headers";
import { readProviderSpf } from "./provider-spf";
import { createSecretProvider, takeOrComposeMessage, withEnvelope } from "./provider-steps";
import {
  sendgridAttachmentInfoSchema,
  sendgridCharsetsSchema,
  sendgridContentIdsSchema,
  sendgridEnvelopeSchema,
} from "./sendgrid.schemas";

export const sendgridProvider = createSecretProvider({
  name: "sendgrid",
  scheme: "basic",
  encoding: "form",
  parse: (body, { request, maxMessageBytes }) =>
    parseSendgridForm(parseFormBody(body, request.headers.get("content-type")), maxMessageBytes),
});

export async function parseSendgridForm(parts: readonly FormPart[], maxMessageBytes: number): Promise<InboundMessage> {
  const charsets = readJsonField(parts, "charsets", sendgridCharsetsSchema) ?? {};
  const text = (name: string) => readFormText(parts, name, charsets[name]);
  const email = findFormPart(parts, "email")?.data;
  const raw = await takeOrComposeMessage(email, "the email field", () => composeSendgridMessage(parts, text), maxMessageBytes);
  const envelope = readJsonField(parts, "envelope", sendgridEnvelopeSchema);
  return withEnvelope(raw, {
    sender: envelope?.from === undefined ? undefined : parseEnvelopeSender(envelope.from),
    recipientLists: [parseAddressList([envelope?.to].flat()), parseAddressList([text("to"), text("cc")])],
    noRecipient: "the SendGrid post names no recipient.",
    spf: readProviderSpf(text("SPF")),
  });
}

/** The message rebuilt from the parsed fields; 400 when the post has neither from nor headers. */
function composeSendgridMessage(parts: readonly FormPart[], text: (name: string) => string | undefined) {
  if (!text("from") && !text("headers")) {
    throw createInboundInvalidMessageError("a SendGrid post needs the email field, or from/headers and the message fields.");
  }
  // `headers` is the message's header block as received: its values are still MIME-encoded, which
  // the composer leaves as they are. From, To, Cc and Subject come from their decoded fields.
  const headers = readHeaderFields(text("headers") ?? "") ?? [];
  const header = (name: string) => headers.find((field) => field.name.toLowerCase() === name)?.value;
  return composeRawMessage({
    from: text("from") || header("from"),
    to: text("to") || header("to"),
    cc: text("cc") || header("cc"),
    subject: text("subject") ?? header("subject"),
    messageId: header("message-id"),
    date: header("date"),
    text: text("text"),
    html: text("html"),
    headers,
    attachments: readSendgridAttachments(parts),
  });
}

/** The files `attachment1` … `attachmentN`, described by `attachment-info` and `content-ids`. */
function readSendgridAttachments(parts: readonly FormPart[]): ComposedAttachment[] {
  const info = readJsonField(parts, "attachment-info", sendgridAttachmentInfoSchema) ?? {};
  const contentIds = readJsonField(parts, "content-ids", sendgridContentIdsSchema) ?? {};
  const contentIdByField = new Map(Object.entries(contentIds).map(([contentId, field]) => [field, contentId]));
  return parts
    .filter(({ name }) => /^attachment\d+$/.test(name))
    .sort((first, second) => Number(first.name.slice(10)) - Number(second.name.slice(10)))
    .map((part) => {
      const described = info[part.name];
      return {
        filename: part.filename || described?.filename || described?.name || undefined,
        contentType: described?.type || part.contentType,
        content: part.data,
        contentId: described?.["content-id"] || contentIdByField.get(part.name),
      };
    });
}

function readJsonField<Schema extends z.ZodType>(
  parts: readonly FormPart[],
  name: string,
  schema: Schema,
): z.output<Schema> | undefined {
  const json = readFormText(parts, name);
  if (!json) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw createInboundInvalidMessageError(`the ${name} field is not JSON.`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw createInboundInvalidMessageError(`the ${name} field is malformed.`);
  return parsed.data;
}
