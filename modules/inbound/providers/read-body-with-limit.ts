// Reads a request body into memory, never more than a limit: a Content-Length above it is refused
// before any byte is read, and a streamed body is cancelled as soon as it passes the limit.
import { BODY_SIZE_ALLOWANCE } from "./inbound-providers.constants";
import { createInboundPayloadTooLargeError } from "./inbound-providers.errors";

/**
 * The whole body, at most `maxBytes` long; throws 413 inbound.payload_too_large beyond it,
 * reading no further than the chunk that crossed the limit. The error names `reportedMaxBytes`
 * (the message limit the operator set) when the body limit is derived from it.
 */
export async function readBodyWithLimit(
  request: Request,
  maxBytes: number,
  reportedMaxBytes: number = maxBytes,
): Promise<Buffer> {
  const declaredLength = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw createInboundPayloadTooLargeError(reportedMaxBytes);
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  // With a Content-Length, the body is copied as it comes into one Buffer of that size (no second
  // copy at the end); should more arrive than declared, the rest is collected as chunks.
  let declared = Number.isFinite(declaredLength) && declaredLength > 0 ? Buffer.allocUnsafe(declaredLength) : undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw createInboundPayloadTooLargeError(reportedMaxBytes);
    }
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
  }
  return declared ? declared.subarray(0, total) : Buffer.concat(chunks, total);
}

/** A provider's body, within the allowance of its encoding for a `maxMessageBytes` message. */
export function readProviderBody(
  request: Request,
  maxMessageBytes: number,
  encoding: keyof typeof BODY_SIZE_ALLOWANCE,
): Promise<Buffer> {
  return readBodyWithLimit(request, getBodyLimit(maxMessageBytes, encoding), maxMessageBytes);
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
