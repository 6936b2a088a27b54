// The rules of an address's endpoints (docs/webhooks.md: Destinations): the caller's own live address
// only (anything else: not found); at most the plan's number per address; a URL checked against
// private networks when saved; filters whose patterns compile; an HMAC secret generated when none is
// given, an Ed25519 pair made on the server with its private key encrypted at once; never the last
// endpoint deleted. An HMAC secret is answered in full only by the call that set it.
import type { KeyObject } from "node:crypto";
import { encryptSigningKey, generateSigningKeyPair } from "@/modules/delivery/signing-keys";
import { createEmailCallbackNotFoundError } from "@/modules/email-callbacks/email-callbacks.errors";
import { generateWebhookSecret } from "@/modules/email-callbacks/random-webhook-secret";
import { PLAN_MAX_ENDPOINTS } from "@/modules/plans/plans.constants";
import { toPlanId } from "@/modules/plans/plans.models";
import { createId } from "@/modules/shared/ids";
import type { HostResolver } from "@/modules/shared/net/webhook-target";
import { ensureEndpointFilterPatternsCompile } from "./endpoint-filter.models";
import type { EndpointFilter } from "./endpoint-filter.schemas";
import { ensureEndpointUrlAllowed } from "./endpoint-url";
import { createEndpointNotFoundError, createEndpointsLimitReachedError, createLastEndpointError } from "./endpoints.errors";
import type { EndpointRecord } from "./endpoints.models";
import type { EndpointData, EndpointsRepository } from "./endpoints.repository";
import type { CreateEndpointInput, EndpointSigningInput, UpdateEndpointInput } from "./endpoints.schemas";

export type EndpointRules = {
  allowPrivateTargets: boolean;
  /** Encrypts new Ed25519 private keys (signing-keys.ts: deriveSigningKeyEncryptionKey). */
  signingKeyEncryptionKey: KeyObject;
  resolve?: HostResolver;
};

type Caller = { userId: string; planId: string };
type Ref = { emailCallbackId: string; caller: Caller };

/** An endpoint and whether its answer may show its HMAC secret (only to the call that set it). */
export type EndpointResult = { endpoint: EndpointRecord; revealsSecret: boolean };

export function getMaxEndpoints(planId: string): number {
  return PLAN_MAX_ENDPOINTS[toPlanId(planId)];
}

async function ensureOwnedCallback(repository: EndpointsRepository, { emailCallbackId, caller }: Ref) {
  const callback = await repository.findOwnedCallback({ emailCallbackId, userId: caller.userId });
  if (!callback) throw createEmailCallbackNotFoundError();
}

function toSigningColumns(
  signing: EndpointSigningInput,
  rules: EndpointRules,
): Pick<EndpointData, "signingScheme" | "secret" | "publicKey" | "privateKeyEncrypted"> {
  if (signing.scheme === "hmac") {
    return {
      signingScheme: "hmac",
      secret: signing.secret ?? generateWebhookSecret(),
      publicKey: null,
      privateKeyEncrypted: null,
    };
  }
  const pair = generateSigningKeyPair();
  return {
    signingScheme: "ed25519",
    secret: null,
    publicKey: pair.publicKey,
    privateKeyEncrypted: encryptSigningKey(pair.privateKey, rules.signingKeyEncryptionKey),
  };
}

function ensureFilterCompiles(filter: EndpointFilter | null | undefined) {
  if (filter) ensureEndpointFilterPatternsCompile(filter, ["filter"]);
}

export async function listEndpoints({ repository, ...ref }: Ref & { repository: EndpointsRepository }) {
  await ensureOwnedCallback(repository, ref);
  return repository.listEndpoints(ref.emailCallbackId);
}

export async function createEndpoint({
  input,
  rules,
  repository,
  ...ref
}: Ref & {
  input: CreateEndpointInput & { filter?: EndpointFilter | null };
  rules: EndpointRules;
  repository: EndpointsRepository;
}): Promise<EndpointResult> {
  await ensureOwnedCallback(repository, ref);
  ensureFilterCompiles(input.filter);
  await ensureEndpointUrlAllowed(input.url, rules);
  const data: EndpointData = {
    url: input.url,
    format: input.format,
    ...toSigningColumns(input.signing, rules),
    headers: input.headers,
    timeoutMs: input.timeoutMs,
    filter: input.filter ?? null,
    isEnabled: input.isEnabled,
  };
  const max = getMaxEndpoints(ref.caller.planId);
  const created = await repository.runLockedForCallback(
    { emailCallbackId: ref.emailCallbackId, userId: ref.caller.userId },
    async (queries) => {
      if ((await queries.countEndpoints(ref.emailCallbackId)) >= max) throw createEndpointsLimitReachedError(max);
      return queries.createEndpoint(ref.emailCallbackId, createId("endpoint"), data);
    },
  );
  if (!created) throw createEmailCallbackNotFoundError();
  return { endpoint: created.value, revealsSecret: data.signingScheme === "hmac" };
}

/**
 * A partial change. Sending `signing` sets a new secret (or the given one) or a new key pair, even
 * with the same scheme: that is how a secret is rotated.
 */
export async function updateEndpoint({
  endpointId,
  input,
  rules,
  repository,
  ...ref
}: Ref & {
  endpointId: string;
  input: UpdateEndpointInput & { filter?: EndpointFilter | null };
  rules: EndpointRules;
  repository: EndpointsRepository;
}): Promise<EndpointResult> {
  await ensureOwnedCallback(repository, ref);
  ensureFilterCompiles(input.filter);
  if (input.url !== undefined) await ensureEndpointUrlAllowed(input.url, rules);
  const { signing, ...rest } = input;
  const changes: Partial<EndpointData> = { ...rest, ...(signing ? toSigningColumns(signing, rules) : {}) };
  const endpoint = await repository.updateEndpoint({ emailCallbackId: ref.emailCallbackId, id: endpointId }, changes);
  if (!endpoint) throw createEndpointNotFoundError();
  return { endpoint, revealsSecret: signing?.scheme === "hmac" };
}

export async function deleteEndpoint({
  endpointId,
  repository,
  now = new Date(),
  ...ref
}: Ref & { endpointId: string; repository: EndpointsRepository; now?: Date }): Promise<void> {
  const result = await repository.runLockedForCallback(
    { emailCallbackId: ref.emailCallbackId, userId: ref.caller.userId },
    async (queries) => {
      const count = await queries.countEndpoints(ref.emailCallbackId);
      const isLast = count <= 1;
      if (isLast && (await repository.findEndpoint({ emailCallbackId: ref.emailCallbackId, id: endpointId })))
        throw createLastEndpointError();
      if (!(await queries.deleteEndpoint(ref.emailCallbackId, endpointId, now))) throw createEndpointNotFoundError();
    },
  );
  if (!result) throw createEmailCallbackNotFoundError();
}
