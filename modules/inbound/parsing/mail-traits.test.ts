import { describe, expect, it } from "vitest";
import { readMailFlags, readThreadId } from "./mail-traits";
import { parseMail } from "./webhook-payload";

async function flagsOf(message: string, sender: string | null = "bob@example.org") {
  const parsed = await parseMail(Buffer.from(message.replaceAll("\n", "\r\n")));
  const headers = (parsed.headerLines ?? []).map(({ key, line }) => ({ name: key, value: line.slice(line.indexOf(":") + 1) }));
  return readMailFlags({ headers, sender, parsed });
}

const BASE = "From: bob@example.org\nTo: inbox@hookmail.test\nSubject: hello\n";

describe("mail flags (docs/webhooks.md: Flags and threads)", () => {
  it("flags nothing on a mail a person wrote", async () => {
    expect(await flagsOf(`${BASE}\nHello\n`)).toEqual({ isAutoReply: false, isBounce: false, isMailingList: false });
  });

  it.each([
    ["Auto-Submitted: auto-replied", true],
    ["Auto-Submitted: auto-generated", true],
    ["Auto-Submitted: no", false],
    ["X-Autoreply: yes", true],
    ["Precedence: auto_reply", true],
  ])("reads an auto-reply from %s", async (header, expected) => {
    expect((await flagsOf(`${BASE}${header}\n\nOut of office\n`)).isAutoReply).toBe(expected);
  });

  it("reads a bounce from a delivery status report", async () => {
    const dsn = `From: MAILER-DAEMON@example.org
To: bob@hookmail.test
Subject: Undelivered Mail Returned to Sender
Content-Type: multipart/report; report-type=delivery-status; boundary="b"

--b
Content-Type: text/plain

The mail could not be delivered.
--b
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; nobody@example.org
Action: failed
Status: 5.1.1
--b--
`;
    expect((await flagsOf(dsn, null)).isBounce).toBe(true);
  });

  it.each([
    "List-Id: Team <team.lists.example.org>",
    "List-Unsubscribe: <mailto:leave@lists.example.org>",
    "Precedence: bulk",
    "Precedence: list",
  ])("reads list mail from %s", async (header) => {
    expect((await flagsOf(`${BASE}${header}\n\nNews\n`)).isMailingList).toBe(true);
  });
});

describe("readThreadId", () => {
  it("is the first of References, else In-Reply-To, else the Message-ID, without angle brackets", () => {
    expect(readThreadId({ references: ["<root@x>", "<second@x>"], inReplyTo: "<second@x>", messageId: "<third@x>" })).toBe(
      "root@x",
    );
    expect(readThreadId({ references: "<root@x> <second@x>", inReplyTo: undefined, messageId: "<m@x>" })).toBe("root@x");
    expect(readThreadId({ references: undefined, inReplyTo: "<parent@x>", messageId: "<m@x>" })).toBe("parent@x");
    expect(readThreadId({ references: undefined, inReplyTo: undefined, messageId: "<m@x>" })).toBe("m@x");
    expect(readThreadId({ references: undefined, inReplyTo: undefined, messageId: undefined })).toBeNull();
  });
});
