// The webhook body's bytes as ordered pieces (docs/architecture.md: Large values). The body is exactly
// `JSON.stringify(payload)` in UTF-8, but its parts become known out of order: each attachment's
// base64 while the message streams through the parser, its size (before the content) and SHA-256
// (after it) when its last byte has gone by, and the text and HTML (before the attachments) at the
// end. So the body is cut into numbered parts, each appended to in order and complete on its own:
//   0            `{"type":…,"data":{…,"attachments":[`  (known at the end)
//   3i+1         attachment i up to its content's opening quote, after a comma from the 2nd on
//   3i+2         attachment i's base64, written chunk by chunk as its bytes are decoded
//   3i+3         `",` and attachment i's keys after its content, up to its `}`
//   3n+1         `],"raw":{…},…}`  (known at the end)
// An attachment sent by link is whole in its part 3i+1 (its content is null). A sink joins the parts
// in ascending order: into one Buffer in the parsing thread (body-sinks.ts), or in the database.
import { randomUUID } from "node:crypto";
import type { WebhookAttachment, WebhookPayload } from "./webhook-body";

export const PREFIX_PART = 0;
export const attachmentHeadPart = (index: number) => 3 * index + 1;
export const attachmentContentPart = (index: number) => 3 * index + 2;
export const attachmentTailPart = (index: number) => 3 * index + 3;
export const suffixPart = (attachmentCount: number) => 3 * attachmentCount + 1;

/** Where the body's pieces go; `append` may make the writer wait (flow control). */
export type BodySink<Output> = {
  /** Adds text to the end of a part, as UTF-8 (latin1: text of one byte per character, such as base64). */
  append: (part: number, text: string, encoding?: "utf8" | "latin1") => void | Promise<void>;
  /** Nothing more comes to this part. */
  endPart: (part: number) => void | Promise<void>;
  /** Every part is complete: the body, or where it went. */
  finish: () => Promise<Output>;
};

/**
 * Base64 of a stream of chunks, a chunk at a time: the 0–2 bytes that do not make a group of 3 are
 * carried to the next chunk, so that the pieces join into exactly the base64 of the whole. No chunk
 * is copied: the carried bytes and the start of the next one make one group of their own.
 */
export function createBase64Encoder(): { push: (chunk: Buffer) => string; end: () => string } {
  const carry = Buffer.alloc(3);
  let carried = 0;
  return {
    push: (chunk) => {
      let start = 0;
      let head = "";
      if (carried > 0) {
        start = Math.min(3 - carried, chunk.length);
        chunk.copy(carry, carried, 0, start);
        carried += start;
        if (carried < 3) return "";
        head = carry.toString("base64");
        carried = 0;
      }
      const end = chunk.length - ((chunk.length - start) % 3);
      chunk.copy(carry, 0, end);
      carried = chunk.length - end;
      return head + chunk.toString("base64", start, end);
    },
    end: () => {
      const rest = carry.toString("base64", 0, carried);
      carried = 0;
      return rest;
    },
  };
}

/**
 * Appends everything of the body but the attachments' base64 (written while parsing) to `sink`:
 * the prefix, each attachment's head and tail, the suffix. `payload` is the one buildWebhookPayload
 * made; the `content` of its attachments is not read (an attachment with a url has none).
 */
export async function writeBodyFrame(payload: WebhookPayload, sink: BodySink<unknown>): Promise<void> {
  const { attachments } = payload.data;
  // The body with a unique placeholder where the attachments go, split around it.
  const placeholder = `attachments-${randomUUID()}`;
  const [before, after] = JSON.stringify({ ...payload, data: { ...payload.data, attachments: placeholder } }).split(
    JSON.stringify(placeholder),
  ) as [string, string];
  await appendWhole(sink, PREFIX_PART, `${before}[`);
  for (const [index, attachment] of attachments.entries()) {
    const [head, tail] = splitAttachment(attachment);
    await appendWhole(sink, attachmentHeadPart(index), index > 0 ? `,${head}` : head);
    if (tail !== null) await appendWhole(sink, attachmentTailPart(index), tail);
  }
  await appendWhole(sink, suffixPart(attachments.length), `]${after}`);
}

async function appendWhole(sink: BodySink<unknown>, part: number, text: string) {
  await sink.append(part, text);
  await sink.endPart(part);
}

/**
 * One attachment's JSON in its key order around its base64: `{…,"content":"` and `",…}`; an
 * attachment sent by link is whole in the first (tail null).
 */
function splitAttachment(attachment: WebhookAttachment): [string, string | null] {
  if (attachment.url !== null) return [JSON.stringify(attachment), null];
  const keys = Object.keys(attachment) as (keyof WebhookAttachment)[];
  const contentIndex = keys.indexOf("content");
  const pick = (selected: (keyof WebhookAttachment)[]) => Object.fromEntries(selected.map((key) => [key, attachment[key]]));
  const head = JSON.stringify({ ...pick(keys.slice(0, contentIndex)), content: "" }).slice(0, -2);
  const rest = keys.slice(contentIndex + 1);
  const tail = rest.length > 0 ? `",${JSON.stringify(pick(rest)).slice(1)}` : '"}';
  return [head, tail];
}
