// The reliability tests' view of the loopback webhook receiver (tests/support/webhook-sink.ts). Each
// address posts to `${url}/<name>`; the sink verifies the Standard Webhooks signature with that
// address's secret (as README shows), reads the payload, asks `answer` which status to reply, and
// records every request it got.
import { Webhook } from "standardwebhooks";
import { describeError } from "@/modules/shared/errors/describe-error";
import { type SinkRequest as LoopbackRequest, startWebhookSink as startLoopbackSink } from "../../support/webhook-sink";

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
  const sink = await startLoopbackSink({
    keepBodies: false,
    decide: (request, body) => {
      const checked = checkRequest(request, body, { secretsByName, idHeader });
      const status = checked.signatureError === null ? answer(checked) : 401;
      requests.push({ ...checked, answeredStatus: status, receivedAt: Date.now() });
      return {
        status,
        headers: { "content-type": "text/plain" },
        body: status >= 200 && status < 300 ? "ok" : `answered ${status}`,
      };
    },
  });
  return {
    url: sink.url(),
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
    close: sink.close,
  };
}

/** Verifies the request's signature with its address's secret and reads what the tests count from its payload. */
function checkRequest(
  request: LoopbackRequest,
  body: Buffer,
  { secretsByName, idHeader }: { secretsByName: () => ReadonlyMap<string, string>; idHeader: string },
): Omit<SinkRequest, "answeredStatus" | "receivedAt"> {
  const webhookId = String(request.headers["webhook-id"] ?? "");
  const callbackName = request.path.split("?")[0]?.split("/").at(-1) ?? "";
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
    signatureError = describeError(error);
  }
  try {
    payload = JSON.parse(body.toString("utf8")) as WebhookPayload;
  } catch {
    signatureError ??= "the body is not JSON";
  }
  const data = payload.data ?? {};
  const idField = (data.headers ?? []).find((field) => String(field.name).toLowerCase() === idHeader);
  return {
    webhookId,
    callbackName,
    signatureError,
    payloadId: typeof data.id === "string" ? data.id : null,
    tag: typeof data.tag === "string" ? data.tag : null,
    mailId: idField ? String(idField.value) : null,
    attachmentCount: Array.isArray(data.attachments) ? data.attachments.length : 0,
    bytes: body.length,
  };
}
