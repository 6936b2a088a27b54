// A large webhook body as the message page shows it (docs/webhooks.md: Reading a mail afterwards): the body
// sent, with the base64 `content` of each attachment left out (`null`, as when an address takes its
// attachments by link). A mail of 20 MiB would otherwise make the page download, parse and lay out
// 27 MiB of JSON; its attachments have download links of their own, and the exact body one of its own.
//
// It works on the bytes with native searches, never parsing the JSON: in a JSON text, `"content":"`
// can only be a key `content` opening a string value (a quote inside a string is escaped), and the
// value runs to the next quote when it holds no backslash, as base64 never does. A value with a
// backslash is kept as it is.

/** Bodies above this size are shortened for the page; smaller ones are shown as sent. */
export const SHORTENED_WEBHOOK_BODY_ABOVE_BYTES = 1024 * 1024;

const CONTENT_KEY = Buffer.from('"content":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NULL_VALUE = Buffer.from("null");

export function shortenWebhookBody(body: Buffer): Buffer {
  const kept: Buffer[] = [];
  let from = 0;
  for (let key = body.indexOf(CONTENT_KEY); key !== -1; key = body.indexOf(CONTENT_KEY, from)) {
    const valueStart = key + CONTENT_KEY.length - 1;
    const valueEnd = body.indexOf(QUOTE, valueStart + 1);
    if (valueEnd === -1) break;
    if (body.subarray(valueStart, valueEnd).includes(BACKSLASH)) {
      kept.push(body.subarray(from, valueEnd + 1));
    } else {
      kept.push(body.subarray(from, valueStart), NULL_VALUE);
    }
    from = valueEnd + 1;
  }
  kept.push(body.subarray(from));
  return Buffer.concat(kept);
}
