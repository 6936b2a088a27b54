// Reads the mails the test server sent, from its SMTP sink's HTTP view.
import { expect } from "@playwright/test";

type SinkMail = { envelopeTo: string[]; subject: string; text: string; links: string[] };

export async function waitForMail(sinkUrl: string, to: string): Promise<SinkMail> {
  let found: SinkMail | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${sinkUrl}/mails?to=${encodeURIComponent(to)}`);
        const mails = (await response.json()) as SinkMail[];
        found = mails.at(-1);
        return mails.length;
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(0);
  return found as SinkMail;
}

export function findLink(mail: SinkMail, fragment: string): string {
  const link = mail.links.find((candidate) => candidate.includes(fragment));
  if (!link) throw new Error(`no link containing ${fragment} in "${mail.subject}"`);
  return link;
}
