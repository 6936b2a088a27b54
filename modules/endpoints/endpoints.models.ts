// Pure functions of endpoints: the rules of a custom header, and the API shape, which never holds
// the private key (docs/webhooks.md: Endpoints).
import type { EndpointFormat, SigningScheme } from "@/modules/delivery/delivery.constants";
import { isReservedHeaderName } from "@/modules/delivery/reserved-headers";
import { maskSecret } from "@/modules/email-callbacks/email-callbacks.models";
import type { EndpointFilter } from "./endpoint-filter.schemas";
import { ENDPOINT_HEADER_NAME_MAX_LENGTH, ENDPOINT_HEADER_VALUE_MAX_BYTES } from "./endpoints.constants";

/** An endpoint as stored. */
export type EndpointRecord = {
  id: string;
  emailCallbackId: string;
  url: string;
  format: EndpointFormat;
  signingScheme: SigningScheme;
  /** The HMAC secret (`hmac`), else null. */
  secret: string | null;
  /** `whpk_…` (`ed25519`), else null. */
  publicKey: string | null;
  /** The private key as modules/delivery/signing-keys.ts encrypts it (`ed25519`), else null. Never answered. */
  privateKeyEncrypted: string | null;
  headers: Record<string, string>;
  /** null: the configured WEBHOOK_TIMEOUT_MS. */
  timeoutMs: number | null;
  /** The endpoint's filter, as its schema validated it; null: every mail. */
  filter: unknown;
  isEnabled: boolean;
  createdAt: Date;
};

export type ApiEndpointSigning =
  /** `secret` only in the answer of the call that set it; `maskedSecret` always. */
  { scheme: "hmac"; secret?: string; maskedSecret: string } | { scheme: "ed25519"; publicKey: string } | { scheme: "none" };

export type ApiEndpoint = {
  id: string;
  url: string;
  format: EndpointFormat;
  signing: ApiEndpointSigning;
  headers: Record<string, string>;
  timeoutMs: number;
  filter: EndpointFilter | null;
  isEnabled: boolean;
  createdAt: string;
};

function formatSigning(record: EndpointRecord, revealsSecret: boolean): ApiEndpointSigning {
  switch (record.signingScheme) {
    case "hmac": {
      if (!record.secret) throw new Error(`endpoint ${record.id} signs with hmac without a secret`);
      const maskedSecret = maskSecret(record.secret);
      return revealsSecret ? { scheme: "hmac", secret: record.secret, maskedSecret } : { scheme: "hmac", maskedSecret };
    }
    case "ed25519":
      if (!record.publicKey) throw new Error(`endpoint ${record.id} signs with ed25519 without a public key`);
      return { scheme: "ed25519", publicKey: record.publicKey };
    case "none":
      return { scheme: "none" };
  }
}

/**
 * The API's Endpoint: the private key is never part of it, an HMAC secret only for the call that set
 * it (`revealsSecret`), as an address's own secret is only ever shown masked; a timeout left to the
 * default answers the default.
 */
export function formatEndpointForApi(
  record: EndpointRecord,
  { defaultTimeoutMs, revealsSecret = false }: { defaultTimeoutMs: number; revealsSecret?: boolean },
): ApiEndpoint {
  return {
    id: record.id,
    url: record.url,
    format: record.format,
    signing: formatSigning(record, revealsSecret),
    headers: { ...record.headers },
    timeoutMs: record.timeoutMs ?? defaultTimeoutMs,
    // Stored as its schema validated it (endpoint-filter.schemas.ts).
    filter: (record.filter ?? null) as EndpointFilter | null,
    isEnabled: record.isEnabled,
    createdAt: record.createdAt.toISOString(),
  };
}

/** RFC 9110's token: the characters a header name may hold. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Control characters, tab excepted: CR and LF would start another header, NUL ends the text early. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000a-\u001f\u007f]/;

export type HeaderProblem = "name-invalid" | "name-reserved" | "value-invalid" | "value-too-long";

/** What keeps a custom header from being sent, or null when it may be. */
export function findHeaderProblem(name: string, value: string): HeaderProblem | null {
  if (name.length > ENDPOINT_HEADER_NAME_MAX_LENGTH || !HTTP_TOKEN.test(name)) return "name-invalid";
  if (isReservedHeaderName(name)) return "name-reserved";
  if (CONTROL_CHARACTERS.test(value)) return "value-invalid";
  if (new TextEncoder().encode(value).length > ENDPOINT_HEADER_VALUE_MAX_BYTES) return "value-too-long";
  return null;
}
