// The sample message of "Send test mail": a small RFC 5322 message (text and HTML alternatives)
// built with nodemailer's MailComposer, from test@<the callback's domain> to the callback's address.
import MailComposer from "nodemailer/lib/mail-composer";
import { TEST_MAIL_SENDER_LOCAL_PART, TEST_MAIL_SENDER_NAME, TEST_MAIL_SUBJECT } from "./processings.constants";

export type TestMail = { raw: Buffer; envelope: { from: string; to: string[] } };

export function getTestMailSender(domain: string): string {
  return `${TEST_MAIL_SENDER_LOCAL_PART}@${domain}`;
}

export async function composeTestMail({
  address,
  domain,
  now = new Date(),
}: {
  address: string;
  domain: string;
  now?: Date;
}): Promise<TestMail> {
  const sender = getTestMailSender(domain);
  const text = [
    `This is a test mail sent by Hookmail to ${address}.`,
    "",
    "It went through the same pipeline as any mail sent to this address: if the address is enabled",
    "and accepts this sender, your webhook receives it as an email.received event.",
  ].join("\n");
  const html = [
    `<p>This is a test mail sent by <strong>Hookmail</strong> to ${escapeHtml(address)}.</p>`,
    "<p>It went through the same pipeline as any mail sent to this address: if the address is enabled",
    "and accepts this sender, your webhook receives it as an <code>email.received</code> event.</p>",
  ].join("\n");
  const composer = new MailComposer({
    from: { name: TEST_MAIL_SENDER_NAME, address: sender },
    to: address,
    subject: TEST_MAIL_SUBJECT,
    date: now,
    text,
    html,
  });
  const raw = await new Promise<Buffer>((resolve, reject) => {
    composer.compile().build((error, message) => (error ? reject(error) : resolve(message)));
  });
  return { raw, envelope: { from: sender, to: [address] } };
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
