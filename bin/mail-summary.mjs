// What `hookmail listen` prints of each mail it forwards: its sender and subject, read from a JSON
// webhook body or from a message as received (a raw endpoint's). Standalone, as the command is.

/** Sender and subject of a JSON webhook body. */
export function describeWebhookBody(body) {
  let mail;
  try {
    mail = JSON.parse(body).data ?? {};
  } catch {
    mail = {};
  }
  return { from: mail.from?.address ?? mail.envelope?.from ?? "", subject: mail.subject ?? "" };
}

/** Sender address and subject of a message as received, read from its header section. */
export function describeRawMessage(bytes) {
  const text = bytes.toString("utf8");
  const end = text.search(/\r?\n\r?\n/);
  const unfolded = (end === -1 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, " ");
  const header = (name) => unfolded.match(new RegExp(`^${name}:[ \\t]*(.*)$`, "im"))?.[1]?.trim() ?? "";
  const from = header("From");
  return { from: from.match(/<([^>]*)>/)?.[1] ?? from, subject: decodeEncodedWords(header("Subject")) };
}

/** RFC 2047 encoded words (`=?utf-8?B?…?=`, `=?iso-8859-1?Q?…?=`) as text; anything else stays as it is. */
function decodeEncodedWords(value) {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?*]+)(?:\*[^?]*)?\?([BbQq])\?([^?]*)\?=/g, (word, charset, encoding, encoded) => {
      try {
        const bytes =
          encoding.toUpperCase() === "B"
            ? Buffer.from(encoded, "base64")
            : Buffer.from(
                encoded
                  .replace(/_/g, " ")
                  .replace(/=([0-9A-Fa-f]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16))),
                "latin1",
              );
        return new TextDecoder(charset).decode(bytes);
      } catch {
        return word;
      }
    });
}
