// A loopback webhook receiver run in the test process. Each address posts to `${url}/<name>`; the
// sink verifies the Standard Webhooks signature with that address's secret (as README shows),
// reads the payload, asks `answer` which status to reply, and records every request it got.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type SinkRequest = {
  webhookId: string;
  /** The last path segment: the address's name. */
  callbackName: string;
  /** Null when the signature verified; else why it did not (the sink answered 401). */
  signatureError: string | null;
  /** `data.id` of the payload (must equal the webhook-id). */
  payloadId: string | null;
  /** `data.tag` of the payload. */
  tag: string | null;
  /** The value of the header named `idHeader` among `data.headers`, when there is one. */
  mailId: string | null;
  attachmentCount: number;
  bytes: number;
  answeredStatus: number;
  receivedAt: number;
};

type WebhookPayload = {
  data?: { id?: unknown; tag?: unknown; headers?: { name?: unknown; value?: unknown }[]; attachments?: unknown[] };
};

export type WebhookSink = {
  url: string;
  requests: SinkRequest[];
  /** Requests answered with a 2xx, by webhook-id. */
  deliveredIds: () => Map<string, SinkRequest[]>;
  countAnswered: (status: number) => number;
  close: () => Promise<void>;
};

export async function startWebhookSink({
  secretsByName,
  idHeader = "x-reliability-id",
  answer = () => 200,
}: {
  secretsByName: () => ReadonlyMap<string, string>;
  idHeader?: string;
  /** The status to answer a request whose signature verified. */
  answer?: (request: { webhookId: string; callbackName: string }) => number;
}): Promise<WebhookSink> {
  const requests: SinkRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("error", () => undefined);
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const webhookId = String(request.headers["webhook-id"] ?? "");
      const callbackName = (request.url ?? "").split("?")[0]?.split("/").at(-1) ?? "";
      const secret = secretsByName().get(callbackName);
      let signatureError: string | null = null;
      let payload: WebhookPayload = {};
      try {
        if (!secret) throw new Error(`no secret known for ${callbackName}`);
        new Webhook(secret, { format: "raw" }).verify(body, {
          "webhook-id": webhookId,
          "webhook-timestamp": String(request.headers["webhook-timestamp"] ?? ""),
          "webhook-signature": String(request.headers["webhook-signature"] ?? ""),
        });
      } catch (error) {
        signatureError = error instanceof Error ? error.message : String(error);
      }
      try {
        payload = JSON.parse(body.toString("utf8")) as WebhookPayload;
      } catch {
        signatureError ??= "the body is not JSON";
      }
      const data = payload.data ?? {};
      const idField = (data.headers ?? []).find((field) => String(field.name).toLowerCase() === idHeader);
      const status = signatureError === null ? answer({ webhookId, callbackName }) : 401;
      requests.push({
        webhookId,
        callbackName,
        signatureError,
        payloadId: typeof data.id === "string" ? data.id : null,
        tag: typeof data.tag === "string" ? data.tag : null,
        mailId: idField ? String(idField.value) : null,
        attachmentCount: Array.isArray(data.attachments) ? data.attachments.length : 0,
        bytes: body.length,
        answeredStatus: status,
        receivedAt: Date.now(),
      });
      response.writeHead(status, { "content-type": "text/plain" });
      response.end(status >= 200 && status < 300 ? "ok" : `answered ${status}`);
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    deliveredIds: () => {
      const delivered = new Map<string, SinkRequest[]>();
      for (const entry of requests) {
        if (entry.answeredStatus < 200 || entry.answeredStatus >= 300) continue;
        delivered.set(entry.webhookId, [...(delivered.get(entry.webhookId) ?? []), entry]);
      }
      return delivered;
    },
    countAnswered: (status) => requests.filter((entry) => entry.answeredStatus === status).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
