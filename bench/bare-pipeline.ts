// The bare-pipeline baseline: smtp-server → mailparser → JSON → HTTP POST, no storage, no signing,
// no retries. What "relay a mail to a webhook" costs on this machine before the product adds anything.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type BarePipeline = { port: number; close: () => Promise<void> };

export async function startBarePipeline({
  webhookUrl,
  onEndOfData,
}: {
  webhookUrl: string;
  /** Called with the raw message as soon as DATA has ended. */
  onEndOfData?: (raw: Buffer) => void;
}): Promise<BarePipeline> {
  const target = new URL(webhookUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

  const post = (body: string) =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: "POST",
          agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          response.on("end", () => resolve());
        },
      );
      request.on("error", reject);
      request.end(body);
    });

  const relay = async (raw: Buffer, envelope: { from: string | null; to: string[] }) => {
    const parsed = await simpleParser(raw);
    const headers = parsed.headerLines.map(({ line }) => {
      const colon = line.indexOf(":");
      return { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
    });
    const body = JSON.stringify({
      type: "email.received",
      data: {
        envelope,
        subject: parsed.subject ?? null,
        headers,
        text: parsed.text ?? null,
        html: parsed.html || null,
        attachments: parsed.attachments.map((a) => ({
          filename: a.filename ?? null,
          contentType: a.contentType,
          size: a.size,
          content: a.content.toString("base64"),
        })),
      },
    });
    await post(body);
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        onEndOfData?.(raw);
        callback(null, "2.0.0 Queued");
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        relay(raw, envelope).catch((error: unknown) => console.error("bare pipeline: relay failed", error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
