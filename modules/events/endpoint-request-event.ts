// The `email.received` event of a stream opened for one endpoint (`?include=webhook&endpoint=<id>`,
// docs/webhooks.md: Live events): that endpoint's request for a mail it takes, as its deliveries send
// it: the same body (the webhook body for `json`, the message as received for `raw`) and the same
// headers, signed now with its scheme (delivery/endpoint-headers.ts). A raw message need not be UTF-8
// text, so its body is carried in base64 (`bodyEncoding: "base64"`). The body is read a slice at a
// time, once to sign it and once to write it, as the stream's client takes it.
import type { KeyObject } from "node:crypto";
import { eachSlice, VALUE_SLICE_BYTES } from "@/modules/db/sliced-values";
import { buildSignedDeliveryHeaders, createDeliverySigner, toDeliverySigning } from "@/modules/delivery/endpoint-headers";
import { escapeJsonStringPart, formatEmailReceivedFrame, toWebhookTimestamp } from "./events.models";
import type { EventsRepository, StreamedEndpoint } from "./events.repository";

/** Writes the endpoint's request for the mail `emailProcessingId`; writes nothing when the endpoint took no delivery of it. */
export async function writeEndpointRequestEvent({
  emailProcessingId,
  emailCallbackId,
  endpoint,
  repository,
  signingKeyEncryptionKey,
  now,
  write,
  isFinished,
}: {
  emailProcessingId: string;
  emailCallbackId: string;
  endpoint: StreamedEndpoint;
  repository: EventsRepository;
  signingKeyEncryptionKey: KeyObject | undefined;
  now: () => Date;
  write: (text: string) => Promise<void>;
  isFinished: () => boolean;
}): Promise<void> {
  const stored = await repository.openEndpointBody({ emailProcessingId, emailCallbackId, endpoint });
  if (!stored) return;
  const timestamp = toWebhookTimestamp(now());
  const signer = createDeliverySigner(toDeliverySigning(endpoint, signingKeyEncryptionKey), emailProcessingId, timestamp);
  // A body of one slice is kept from its first read; a larger one is read again.
  const isSmall = stored.byteLength <= VALUE_SLICE_BYTES;
  const slices: Uint8Array[] = [];
  for await (const slice of readSlices(stored.stream)) {
    if (isFinished()) return;
    signer.update(slice);
    if (isSmall) slices.push(slice);
  }
  const body = isSmall ? slices : await stored.reopen();
  if (!body || isFinished()) return;
  const headers = buildSignedDeliveryHeaders({
    endpoint,
    id: emailProcessingId,
    timestamp,
    signature: signer.sign(),
    recipient: stored.recipient,
  });
  const isRaw = endpoint.format === "raw";
  const { head, tail } = formatEmailReceivedFrame(headers, isRaw ? { bodyEncoding: "base64" } : {});
  const encode = isRaw ? createBase64Encoder() : createJsonTextEncoder();
  let text = head;
  for await (const slice of readSlices(body)) {
    if (isFinished()) return;
    text += encode.part(slice);
    await write(text);
    text = "";
  }
  await write(`${text}${encode.end()}${tail}`);
}

/** Base64 of bytes that come in parts: each part's whole 3-byte groups now, the rest with the next. */
function createBase64Encoder() {
  let carry = Buffer.alloc(0);
  return {
    part: (slice: Uint8Array) => {
      const joined = Buffer.concat([carry, slice]);
      const usable = joined.byteLength - (joined.byteLength % 3);
      carry = Buffer.from(joined.subarray(usable));
      return joined.subarray(0, usable).toString("base64");
    },
    end: () => carry.toString("base64"),
  };
}

/** UTF-8 text that comes in parts, escaped as the content of a JSON string. */
function createJsonTextEncoder() {
  const decoder = new TextDecoder();
  return {
    part: (slice: Uint8Array) => escapeJsonStringPart(decoder.decode(slice, { stream: true })),
    end: () => escapeJsonStringPart(decoder.decode()),
  };
}

/** The slices of a stored value, one at a time; leaving the loop early stops reading it. */
export async function* readSlices(body: ReadableStream<Uint8Array> | Uint8Array[]): AsyncGenerator<Uint8Array> {
  if (Array.isArray(body)) yield* body;
  else yield* eachSlice(body);
}
