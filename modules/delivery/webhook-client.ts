// One HTTP POST of a webhook, with node:http/https so the SSRF check sits where the connection is
// made: literal IPs (in any form the URL parser normalises: 2130706433, 0177.0.0.1, [::ffff:7f00:1])
// are checked before connecting, names inside the socket's own `lookup`, so the address checked is
// the address connected to (no second resolution to rebind). Connections are kept alive and reused
// for the same host and port: a reused socket goes to an address checked when it was opened, so it
// skips nothing (the agents are kept apart by the private-targets setting and the resolver), and its
// remote address is judged again before the request is written to it. A refused target is recorded
// as "not allowed", never with the address a name resolved to (docs/security.md).
// Redirects are never followed, at most 1 KiB of the answer is read, and one timeout bounds the
// whole attempt (DNS included); a connection is reused only after a response read to its end.
import type { LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { performance } from "node:perf_hooks";
import { eachSlice } from "@/modules/db/sliced-values";
import { isPrivateAddress } from "@/modules/shared/net/private-address";
import { type HostResolver, resolveHost, WEBHOOK_TARGET_NOT_ALLOWED_MESSAGE } from "@/modules/shared/net/webhook-target";
import { RESPONSE_EXCERPT_BYTES } from "./delivery.constants";
import type { StoredBody } from "./delivery.models";
import { parseRetryAfter } from "./delivery.schedule";
import type { WebhookResult } from "./webhook-result";

export type WebhookRequest = {
  url: string;
  headers: Record<string, string>;
  /** The bytes, or a body stored in slices, read and written a slice at a time as the connection takes them. */
  body: string | Uint8Array | StoredBody;
  timeoutMs: number;
  allowPrivateTargets: boolean;
  signal?: AbortSignal;
  /** Name resolution (tests inject one); the system resolver by default. */
  resolve?: HostResolver;
};

export type { WebhookFailureResult, WebhookResponseResult, WebhookResult } from "./webhook-result";

export type WebhookClient = { postWebhook: (request: WebhookRequest) => Promise<WebhookResult> };

class BlockedTargetError extends Error {
  override name = "BlockedTargetError";
}
class AttemptTimeoutError extends Error {
  override name = "AttemptTimeoutError";
}
class AttemptAbortedError extends Error {
  override name = "AttemptAbortedError";
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net.connect that refuses names resolving to any private address. */
function createGuardedLookup({ resolve, allowPrivateTargets }: { resolve: HostResolver; allowPrivateTargets: boolean }) {
  return (hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback) => {
    resolve(hostname).then(
      (resolved) => {
        const addresses = resolved.filter((address) => net.isIP(address) !== 0);
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
          return;
        }
        if (!allowPrivateTargets && addresses.some((address) => isPrivateAddress(address))) {
          callback(new BlockedTargetError(WEBHOOK_TARGET_NOT_ALLOWED_MESSAGE), []);
          return;
        }
        const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : Number(options.family ?? 0);
        const records = addresses
          .map((address) => ({ address, family: net.isIP(address) }))
          .filter((record) => family === 0 || record.family === family);
        const first = records[0];
        if (!first) {
          callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: "ENOTFOUND" }), []);
        } else if (options.all) {
          callback(null, records);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), []),
    );
  };
}

/** Idle kept-alive connections are closed after this long. */
const IDLE_CONNECTION_MS = 5_000;
/** Connections per host and port at most (a worker runs 16 attempts at a time). */
const MAX_CONNECTIONS_PER_HOST = 32;

type Agents = { "http:": http.Agent; "https:": https.Agent };

const agentsByResolver = new WeakMap<HostResolver, { private: Agents; public: Agents }>();

function createAgents(): Agents {
  const options = {
    keepAlive: true,
    timeout: IDLE_CONNECTION_MS,
    maxSockets: MAX_CONNECTIONS_PER_HOST,
    maxFreeSockets: MAX_CONNECTIONS_PER_HOST,
  };
  return { "http:": new http.Agent(options), "https:": new https.Agent(options) };
}

/** The keep-alive agent for this protocol, resolver and private-targets setting. */
function getAgent(protocol: "http:" | "https:", resolve: HostResolver, allowPrivateTargets: boolean): http.Agent {
  let agents = agentsByResolver.get(resolve);
  if (!agents) {
    agents = { private: createAgents(), public: createAgents() };
    agentsByResolver.set(resolve, agents);
  }
  return (allowPrivateTargets ? agents.private : agents.public)[protocol];
}

/**
 * Judges the address a socket is connected to: a kept-alive socket handed to this request was
 * checked when it was opened, and is checked again here (a new socket is still connecting, and its
 * address was judged by the guarded lookup or, for a literal IP, before the request).
 */
export function isSocketAddressAllowed(socket: { remoteAddress?: string | undefined }, allowPrivateTargets: boolean): boolean {
  return allowPrivateTargets || socket.remoteAddress === undefined || !isPrivateAddress(socket.remoteAddress);
}

function stripBrackets(hostname: string) {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

function toBuffer(body: string | Uint8Array): Buffer {
  return typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** Text safe to store: PostgreSQL text cannot hold NUL characters. */
function toExcerpt(chunks: Buffer[]): string {
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8").replaceAll("\u0000", "\uFFFD");
}

function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map((inner: unknown) => describeError(inner)).join("; ");
  }
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

/** POSTs once and reports what happened; never throws for anything the network or the receiver does. */
export async function postWebhook({
  url,
  headers,
  body,
  timeoutMs,
  allowPrivateTargets,
  signal,
  resolve = resolveHost,
}: WebhookRequest): Promise<WebhookResult> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);

  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { kind: "blocked-target", durationMs: elapsed(), error: "the webhook URL is not a valid URL" };
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    return { kind: "blocked-target", durationMs: elapsed(), error: `the ${target.protocol} scheme is not allowed` };
  }
  const hostname = stripBrackets(target.hostname);
  // net.connect skips `lookup` for literal IPs, so those are checked here, once the URL parser has normalised them.
  if (net.isIP(hostname) !== 0 && !allowPrivateTargets && isPrivateAddress(hostname)) {
    return { kind: "blocked-target", durationMs: elapsed(), error: WEBHOOK_TARGET_NOT_ALLOWED_MESSAGE };
  }
  if (signal?.aborted) return { kind: "network-error", durationMs: elapsed(), error: "the attempt was aborted" };

  const payload = typeof body === "string" || body instanceof Uint8Array ? toBuffer(body) : null;
  const byteLength = payload ? payload.byteLength : (body as StoredBody).byteLength;
  return new Promise<WebhookResult>((settle) => {
    let isSettled = false;
    let response: http.IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let receivedBytes = 0;

    const protocol = target.protocol === "https:" ? "https:" : "http:";
    const transport = protocol === "https:" ? https : http;
    const request = transport.request({
      protocol,
      hostname,
      port: target.port || undefined,
      path: `${target.pathname}${target.search}`,
      method: "POST",
      headers: { ...headers, "Content-Length": String(byteLength) },
      agent: getAgent(protocol, resolve, allowPrivateTargets),
      // Used for each new connection: a reused one was checked when it was opened.
      lookup: createGuardedLookup({ resolve, allowPrivateTargets }) as unknown as net.LookupFunction,
    });

    /** `isComplete`: the response was read to its end, so its connection can serve the next attempt. */
    const finish = (result: WebhookResult, isComplete = false) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      settle(result);
      if (!isComplete) request.destroy();
    };
    const finishWithResponse = (isComplete = false) => {
      if (!response) return;
      const retryAfterMs = parseRetryAfter(response.headers["retry-after"], Date.now());
      const location = response.headers.location;
      finish(
        {
          kind: "response",
          statusCode: response.statusCode ?? 0,
          durationMs: elapsed(),
          bodyExcerpt: toExcerpt(chunks),
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          ...(location === undefined ? {} : { location }),
        },
        isComplete,
      );
    };
    const onAbort = () => request.destroy(new AttemptAbortedError("the attempt was aborted"));
    // Once the status line has arrived, a stalled body no longer changes the verdict: keep what came.
    const timer = setTimeout(() => {
      if (response) finishWithResponse();
      else request.destroy(new AttemptTimeoutError(`no response within ${timeoutMs} ms`));
    }, timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });

    request.on("socket", (socket) => {
      if (!isSocketAddressAllowed(socket, allowPrivateTargets))
        request.destroy(new BlockedTargetError(WEBHOOK_TARGET_NOT_ALLOWED_MESSAGE));
    });
    request.on("error", (error: unknown) => {
      if (isSettled) return;
      if (response) return finishWithResponse();
      const durationMs = elapsed();
      if (error instanceof AttemptTimeoutError) finish({ kind: "timeout", durationMs, error: error.message });
      else if (error instanceof BlockedTargetError) finish({ kind: "blocked-target", durationMs, error: error.message });
      else finish({ kind: "network-error", durationMs, error: describeError(error) });
    });
    request.on("response", (incoming) => {
      response = incoming;
      incoming.on("data", (chunk: Buffer) => {
        if (receivedBytes < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
        receivedBytes += chunk.byteLength;
        if (receivedBytes >= RESPONSE_EXCERPT_BYTES) finishWithResponse();
      });
      incoming.on("end", () => finishWithResponse(true));
      incoming.on("aborted", () => finishWithResponse());
      incoming.on("error", () => finishWithResponse());
      incoming.on("close", () => finishWithResponse());
    });
    if (payload) request.end(payload);
    else void writeStoredBody(request, body as StoredBody);
  });
}

/**
 * Writes a stored body a slice at a time, the next slice read once the connection took the last:
 * the attempt holds one slice, however large the body. A body that cannot be read to its length
 * fails the request (a network error, retried).
 */
async function writeStoredBody(request: http.ClientRequest, body: StoredBody): Promise<void> {
  try {
    const stream = await body.open();
    if (!stream) throw new Error("it went before it was sent");
    let sent = 0;
    for await (const slice of eachSlice(stream)) {
      // Answered (or failed) before the whole body went: nothing more to send.
      if (request.destroyed) return;
      sent += slice.byteLength;
      if (!request.write(slice)) await drainOrClose(request);
    }
    if (request.destroyed) return;
    if (sent !== body.byteLength) throw new Error("its length changed while it was sent");
    request.end();
  } catch (error) {
    request.destroy(new Error(`the stored body could not be read: ${describeError(error)}`));
  }
}

const drainOrClose = (request: http.ClientRequest) =>
  new Promise<void>((resolve) => {
    const done = () => {
      request.off("drain", done);
      request.off("close", done);
      resolve();
    };
    request.once("drain", done);
    request.once("close", done);
  });
