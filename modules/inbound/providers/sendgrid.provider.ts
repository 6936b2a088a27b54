// POST /api/inbound/sendgrid: SendGrid Inbound Parse, the default parsed post or, with "POST the
// raw, full MIME message", the `email` field; HTTP basic auth whose password is INBOUND_SECRET.
import type { z } from "zod";
import { type ComposedAttachment, composeRawMessage } from "./compose-message";
import { type FormPart, findFormPart, parseFormBody, readFormText } from "./form-body";
import { isBasicAuthPasswordValid } from "./inbound-auth";
import { createInboundInvalidMessageError, createInboundUnauthorizedError } from "./inbound-providers.errors";
import type { InboundMessage, InboundProvider } from "./inbound-providers.types";
import {
  ensureLooksLikeMessage,
  parseAddressList,
  parseEnvelopeSender,
  readEnvelopeFromHeaders,
  readHeaderFields,
} from "./message-headers";
import { ensureMessageWithinLimit, readProviderBody } from "./read-body-with-limit";
import {
  sendgridAttachmentInfoSchema,
  sendgridCharsetsSchema,
  sendgridContentIdsSchema,
  sendgridEnvelopeSchema,
} from "./sendgrid.schemas";

export const sendgridProvider: InboundProvider = {
  name: "sendgrid",
  async readMessage({ request, settings }) {
    if (!isBasicAuthPasswordValid(request.headers.get("authorization"), settings.secret)) {
      throw createInboundUnauthorizedError("Use HTTP basic auth with INBOUND_SECRET as the password.");
    }
    const body = await readProviderBody(request, settings.maxMessageBytes, "form");
    const parts = parseFormBody(body, request.headers.get("content-type"));
    return { message: await parseSendgridForm(parts, settings.maxMessageBytes) };
  },
};

export async function parseSendgridForm(parts: readonly FormPart[], maxMessageBytes: number): Promise<InboundMessage> {
  const charsets = readJsonField(parts, "charsets", sendgridCharsetsSchema) ?? {};
  const text = (name: string) => readFormText(parts, name, charsets[name]);
  const email = findFormPart(parts, "email");
  if (!email?.data.length && !text("from") && !text("headers")) {
    throw createInboundInvalidMessageError("a SendGrid post needs the email field, or from/headers and the message fields.");
  }
  const raw = ensureMessageWithinLimit(
    email?.data.length
      ? ensureLooksLikeMessage(Buffer.from(email.data), "the email field")
      : await composeSendgridMessage(parts, text),
    maxMessageBytes,
  );
  const envelope = readJsonField(parts, "envelope", sendgridEnvelopeSchema);
  const fromHeaders = readEnvelopeFromHeaders(readHeaderFields(raw) ?? []);
  const to = parseAddressList([envelope?.to].flat());
  const fields = parseAddressList([text("to"), text("cc")]);
  const recipients = [to, fields, fromHeaders.to].find((addresses) => addresses.length > 0);
  if (!recipients) throw createInboundInvalidMessageError("the SendGrid post names no recipient.");
  return {
    raw,
    envelope: {
      from: envelope && envelope.from !== undefined ? parseEnvelopeSender(envelope.from) : fromHeaders.from,
      to: recipients,
    },
  };
}

function composeSendgridMessage(parts: readonly FormPart[], text: (name: string) => string | undefined) {
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
