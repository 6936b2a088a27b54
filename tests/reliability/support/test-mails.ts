// Mails of the zero-loss tests: each with an id of its own carried in its Message-ID and in an
// X-Reliability-Id header (which the webhook sink reads back from the payload), built once into raw
// bytes so that a retry sends the same bytes and Message-ID, as an MTA or a provider would.
import { createTransport } from "nodemailer";
import type Mail from "nodemailer/lib/mailer";

export const MESSAGE_ID_DOMAIN = "zero-loss.hookmail.test";
export const ENVELOPE_FROM = "sender@example.org";

export type TestMail = { id: string; recipient: string; message: Mail.Options };

export function buildTestMail({ id, recipient }: { id: string; recipient: string }): TestMail {
  return {
    id,
    recipient,
    message: {
      envelope: { from: ENVELOPE_FROM, to: [recipient] },
      from: `Zero Loss <${ENVELOPE_FROM}>`,
      to: recipient,
      subject: `Zero loss ${id}`,
      messageId: `<${id}@${MESSAGE_ID_DOMAIN}>`,
      headers: { "X-Reliability-Id": id },
      text: `Mail ${id}: every accepted mail reaches the webhook.\n`,
    },
  };
}

/** The raw bytes of a mail. */
export async function buildRaw(message: Mail.Options): Promise<Buffer> {
  const info = await createTransport({ streamTransport: true, buffer: true }).sendMail(message);
  return info.message as Buffer;
}

/** The test mail's id in a stored Message-ID, or null for a mail that is not one of ours. */
export function findMailIdOfMessageId(messageId: string | null): string | null {
  return new RegExp(`^<(.+)@${MESSAGE_ID_DOMAIN.replace(/\./g, "\\.")}>$`).exec(messageId ?? "")?.[1] ?? null;
}

/** Runs `work` over `items`, `concurrency` at a time, in order. */
export async function runPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}
