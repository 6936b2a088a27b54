// Heavy but legitimate messages for the tests and benchmarks of parsing off the main thread
// (docs/security.md): a message just under 25 MiB, one of 19,000 MIME parts, one of 8 MiB of
// HTML-only markup. Each takes the parser from a few hundred milliseconds to seconds.
import crypto from "node:crypto";

const DEFAULT_MAX_MESSAGE_BYTES = 26_214_400;

/** A real large message (default just under 25 MiB): text and HTML bodies of 1 MiB and base64 attachments of random bytes. */
export function buildLargeMessage({
  to,
  totalBytes = DEFAULT_MAX_MESSAGE_BYTES - 64 * 1024,
}: {
  to: string;
  totalBytes?: number;
}): Buffer {
  const lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.\r\n";
  const text = lorem.repeat(Math.ceil((1024 * 1024) / lorem.length));
  const head = [
    "From: Bob <bob@example.org>",
    `To: ${to}`,
    "Subject: a large message",
    `Message-ID: <${crypto.randomUUID()}@example.org>`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="large"',
    "",
    "--large",
    "Content-Type: text/plain; charset=utf-8",
    "",
    text,
    "--large",
    "Content-Type: text/html; charset=utf-8",
    "",
    `<html><body><p>${text.replace(/\r\n/g, "</p><p>")}</p></body></html>`,
  ].join("\r\n");
  const parts: string[] = [head];
  let size = Buffer.byteLength(head);
  for (let index = 0; size + 1024 < totalBytes; index += 1) {
    // Base64 lines of 76 characters and a line break take 78 bytes per 57 bytes of content.
    const contentBytes = Math.min(1024 * 1024, Math.floor(((totalBytes - size - 512) / 78) * 57));
    const base64 = crypto.randomBytes(contentBytes).toString("base64").replace(/.{76}/g, "$&\r\n");
    const part = [
      "--large",
      `Content-Type: application/octet-stream; name="file-${index}.bin"`,
      "Content-Transfer-Encoding: base64",
      `Content-Disposition: attachment; filename="file-${index}.bin"`,
      "",
      base64,
    ].join("\r\n");
    parts.push(part);
    size += Buffer.byteLength(part) + 2;
  }
  parts.push("--large--", "");
  return Buffer.from(parts.join("\r\n"));
}

/** A hostile message of about 2 MiB: 19,000 MIME parts (under the parser's limit), over a second of parsing. */
export function buildManyPartsMessage({ to, count = 19_000 }: { to: string; count?: number }): Buffer {
  const parts = [`To: ${to}\r\nSubject: many parts\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n`];
  for (let index = 0; index < count; index += 1) {
    parts.push(
      `--b\r\nContent-Type: text/plain; name="f${index}.txt"\r\nContent-Disposition: attachment; filename="f${index}.txt"\r\n\r\npart ${index}\r\n`,
    );
  }
  parts.push("--b--\r\n");
  return Buffer.from(parts.join(""));
}

/** An HTML-only message of 8 MiB in one line-wrapped table: its text is made from the markup. */
export function buildHtmlOnlyMessage({ to }: { to: string }): Buffer {
  const row = "<tr><td>cell</td><td><b>bold</b> and <i>italic</i> text</td></tr>\r\n";
  const html = `<html><body><table>\r\n${row.repeat(Math.floor((8 * 1024 * 1024) / row.length))}</table></body></html>`;
  return Buffer.from(
    `To: ${to}\r\nSubject: html only\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${html}\r\n`,
  );
}
