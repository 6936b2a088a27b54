// Downloads of mail content through the production server keep their own headers (docs/security.md:
// Large stored content): an HTML or SVG attachment goes out with its own sandboxing policy, its type
// and its length, not with the pages' policy the server gives every other response.
import { expect, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { startWebhookSink, type WebhookSink } from "../support/webhook-sink";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER, E2E_SMTP_PORT } from "./support/servers";

let sink: WebhookSink;
test.beforeEach(async () => {
  sink = await startWebhookSink();
});
test.afterEach(async () => {
  await sink.close();
});

const ATTACHMENTS = [
  {
    filename: "page.html",
    contentType: "text/html",
    content: Buffer.from(
      `<!doctype html><p>${"Hello from an attachment. ".repeat(200)}</p><script>document.title="ran"</script>`,
    ),
  },
  {
    filename: "image.svg",
    contentType: "image/svg+xml",
    content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>document.title="ran"</script></svg>'),
  },
];

test("an HTML or SVG attachment downloads with its own sandboxing policy, type and length, by link and through the API", async ({
  request,
}) => {
  await signUpThroughApi(request);
  const created = await request.post(`${DEFAULT_SERVER.url}/api/email-callbacks`, {
    headers: { Origin: DEFAULT_SERVER.url },
    data: {
      domain: "hookmail.test",
      username: `downloads-${Date.now()}`,
      webhookUrl: sink.url("/hook"),
      allowedOrigins: [],
      attachmentDelivery: "url",
    },
  });
  expect(created.status()).toBe(201);
  const { emailCallback } = (await created.json()) as { emailCallback: { id: string; address: string } };
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: E2E_SMTP_PORT, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({
      from: "bob@example.org",
      to: emailCallback.address,
      subject: "Pages",
      text: "Attached.",
      attachments: ATTACHMENTS,
    });
  } finally {
    transport.close();
  }
  await sink.waitForRequests(1);
  const { data } = JSON.parse(sink.requests[0]!.body.toString("utf8"));
  const processingId = new URL(data.raw.url).pathname.split("/")[3];

  for (const [index, attachment] of ATTACHMENTS.entries()) {
    const urls = [
      data.attachments[index].url as string,
      `${DEFAULT_SERVER.url}/api/email-callbacks/${emailCallback.id}/processings/${processingId}/attachments/${index}`,
    ];
    for (const url of urls) {
      // As a browser asks: compressed if the server will.
      const response = await request.get(url, { headers: { "Accept-Encoding": "gzip, deflate, br" } });
      const what = `${attachment.filename} from ${new URL(url).pathname}`;
      expect(response.status(), what).toBe(200);
      const headers = response.headers();
      expect(headers["content-security-policy"], what).toBe("default-src 'none'; sandbox");
      expect(headers["content-type"], what).toBe(attachment.contentType);
      expect(headers["content-length"], what).toBe(String(attachment.content.byteLength));
      expect(headers["content-encoding"], what).toBeUndefined();
      expect(headers["content-disposition"], what).toContain(`filename="${attachment.filename}"`);
      expect(headers["x-content-type-options"], what).toBe("nosniff");
      // The server's other headers still come along.
      expect(headers["x-frame-options"], what).toBe("DENY");
      expect(Buffer.from(await response.body()).equals(attachment.content), what).toBe(true);
    }
  }
});
