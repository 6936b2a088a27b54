// Reads a request body into memory, never more than a limit: a Content-Length above it is refused
// before any byte is read, and a streamed body is cancelled as soon as it passes the limit. A body
// whose credentials are inside it (Mailgun's) is read past a small prefix only once they are good.
import { joinChunks } from "@/modules/shared/bytes/join-chunks";
import { type CollectedMessage, collectMessage, type MessageSpool } from "../message-spool";
import { BODY_SIZE_ALLOWANCE } from "./inbound-providers.constants";
import { createInboundPayloadTooLargeError } from "./inbound-providers.errors";

/**
 * How an unauthenticated body is held to a small prefix: `check` looks at the bytes read so far
 * (at most `maxPrefixBytes`; `complete` when that is the whole body) and answers true once the
 * credentials in them are good, false to read on, or throws to refuse. When the prefix is spent,
 * or the body ends, without a true, `createExhaustedError()` is thrown and the rest is never read.
 */
export type PrefixCheck = {
  maxPrefixBytes: number;
  check(prefix: Buffer, complete: boolean): Promise<boolean>;
  createExhaustedError(): Error;
};

/** A prefix is looked at again each time this many more bytes have arrived (and at its end). */
const PREFIX_CHECK_STEP_BYTES = 64 * 1024;

/**
 * The whole body, at most `maxBytes` long; throws 413 inbound.payload_too_large beyond it,
 * reading no further than the chunk that crossed the limit. The error names `reportedMaxBytes`
 * (the message limit the operator set) when the body limit is derived from it. With a
 * `prefixCheck`, nothing beyond its prefix is read until it has accepted the credentials.
 */
export async function readBodyWithLimit(
  request: Request,
  maxBytes: number,
  reportedMaxBytes: number = maxBytes,
  prefixCheck?: PrefixCheck,
): Promise<Buffer> {
  const declaredLength = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw createInboundPayloadTooLargeError(reportedMaxBytes);
  }
  let authenticated = !prefixCheck;
  const ensureAuthenticated = async (bytes: Buffer, complete: boolean) => {
    if (!prefixCheck) return;
    authenticated = await prefixCheck.check(bytes.subarray(0, prefixCheck.maxPrefixBytes), complete);
    if (!authenticated && (complete || bytes.length >= prefixCheck.maxPrefixBytes)) {
      throw prefixCheck.createExhaustedError();
    }
  };
  if (!request.body) {
    await ensureAuthenticated(Buffer.alloc(0), true);
    return Buffer.alloc(0);
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let checkedAt = 0;
  // With a Content-Length (and no prefix to check first: a stranger's Content-Length reserves no
  // memory), the body is copied as it comes into one Buffer of that size (no second copy at the
  // end); should more arrive than declared, the rest is collected as chunks.
  let declared =
    !prefixCheck && Number.isFinite(declaredLength) && declaredLength > 0 ? Buffer.allocUnsafe(declaredLength) : undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.byteLength > maxBytes) throw createInboundPayloadTooLargeError(reportedMaxBytes);
      if (declared && total + value.byteLength <= declared.length) {
        declared.set(value, total);
        total += value.byteLength;
        continue;
      }
      if (declared) {
        chunks.push(declared.subarray(0, total));
        declared = undefined;
      }
      total += value.byteLength;
      chunks.push(value);
      if (!authenticated && total - checkedAt >= PREFIX_CHECK_STEP_BYTES) {
        checkedAt = total;
        await ensureAuthenticated(Buffer.concat(chunks, total), false);
      }
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  const body = declared ? declared.subarray(0, total) : await joinChunks(chunks, total);
  if (!authenticated) await ensureAuthenticated(body, true);
  return body;
}

/**
 * The whole body, at most `maxBytes` long (413 as readBodyWithLimit), of an authenticated request:
 * in memory, or past 1 MiB in a file of the spool as it arrives (collectMessage). Nothing is left
 * in the spool when it throws.
 */
export async function readBodyOrSpool(
  request: Request,
  maxBytes: number,
  reportedMaxBytes: number,
  spool: MessageSpool,
): Promise<CollectedMessage> {
  const declaredLength = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw createInboundPayloadTooLargeError(reportedMaxBytes);
  }
  const collected = collectMessage(spool);
  if (!request.body) return collected.finish();
  const reader = request.body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw createInboundPayloadTooLargeError(reportedMaxBytes);
      await collected.add(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    await collected.discard();
    throw error;
  }
  return collected.finish();
}

/** A provider's body, within the allowance of its encoding for a `maxMessageBytes` message. */
export function readProviderBody(
  request: Request,
  maxMessageBytes: number,
  encoding: keyof typeof BODY_SIZE_ALLOWANCE,
  prefixCheck?: PrefixCheck,
): Promise<Buffer> {
  return readBodyWithLimit(request, getBodyLimit(maxMessageBytes, encoding), maxMessageBytes, prefixCheck);
}

/** The largest HTTP body a provider's encoding of a `maxMessageBytes` message may take. */
export function getBodyLimit(maxMessageBytes: number, encoding: keyof typeof BODY_SIZE_ALLOWANCE): number {
  const { factor, extraBytes } = BODY_SIZE_ALLOWANCE[encoding];
  return Math.ceil(maxMessageBytes * factor) + extraBytes;
}

/** Holds a message found inside a provider's body to the operator's limit. */
export function ensureMessageWithinLimit(raw: Buffer, maxMessageBytes: number): Buffer {
  if (raw.length > maxMessageBytes) throw createInboundPayloadTooLargeError(maxMessageBytes);
  return raw;
}
