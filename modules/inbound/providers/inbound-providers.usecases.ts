// The HTTP ingest routes' one usecase: pick the provider, check the route is configured, let the
// provider authenticate and read the request, and hand the message to the pipeline.
import type { Database } from "@/modules/db/db";
import { countMailAnswer } from "@/modules/metrics/metrics";
import type { ProcessMetrics } from "@/modules/metrics/metrics.registry";
import type { MessageSpool } from "../message-spool";
import type { MailgunTokenRegistry } from "./inbound-auth";
import { INBOUND_PROVIDER_NAMES } from "./inbound-providers.constants";
import { createInboundNotConfiguredError, createInboundUnknownProviderError } from "./inbound-providers.errors";
import type { InboundProvider, InboundProviderName, InboundSettings, ReceiveMessage } from "./inbound-providers.types";
import { mailgunProvider } from "./mailgun.provider";
import { createMailgunTokenRepository } from "./mailgun-token.repository";
import { postmarkProvider } from "./postmark.provider";
import { rawProvider } from "./raw.provider";
import { sendgridProvider } from "./sendgrid.provider";

const INBOUND_PROVIDERS: Record<InboundProviderName, InboundProvider> = {
  raw: rawProvider,
  postmark: postmarkProvider,
  mailgun: mailgunProvider,
  sendgrid: sendgridProvider,
};

export function isInboundProviderName(name: string): name is InboundProviderName {
  return (INBOUND_PROVIDER_NAMES as readonly string[]).includes(name);
}

/** The provider of that route segment; 404 inbound.unknown_provider for any other. */
export function getInboundProviderOrThrow(name: string): InboundProvider {
  if (!isInboundProviderName(name)) throw createInboundUnknownProviderError(name);
  return INBOUND_PROVIDERS[name];
}

/**
 * The Mailgun tokens already used, in the database every process shares (the database is opened
 * on first use, so the other routes never wait for it here).
 */
export function getSharedMailgunTokens(database: () => Promise<Database>): MailgunTokenRegistry {
  const repository = async () => createMailgunTokenRepository(await database());
  return {
    has: async (token, nowMs) => (await repository()).has(token, nowMs),
    claim: async (token, nowMs) => (await repository()).claim(token, nowMs),
    release: async (token) => (await repository()).release(token),
  };
}

type ReceiveFromProviderInput = {
  providerName: string;
  request: Request;
  settings: InboundSettings;
  receive: ReceiveMessage;
  nowMs?: number;
  /** The Mailgun tokens already used (getSharedMailgunTokens). */
  mailgunTokens: MailgunTokenRegistry;
  /** Where each answer is counted. */
  metrics: ProcessMetrics;
  /** Where a large raw body is written as it arrives (the process's spool); without it, in memory. */
  spool?: MessageSpool;
};

/**
 * POST /api/inbound/{provider} → `{ accepted }`: the number of processings the pipeline created.
 * 404 for an unknown provider, 503 while INBOUND_SECRET is unset, then the provider's own
 * 401 / 413 / 400 (see InboundProvider), then whatever `receive` throws. Each answer of a known
 * provider is counted in the metrics (README: Monitoring).
 */
export async function receiveFromProvider(input: ReceiveFromProviderInput): Promise<{ accepted: number }> {
  const provider = getInboundProviderOrThrow(input.providerName);
  return countMailAnswer(input.metrics, provider.name, receiveThroughProvider(provider, input));
}

async function receiveThroughProvider(
  provider: InboundProvider,
  { request, settings, receive, nowMs = Date.now(), mailgunTokens, spool }: ReceiveFromProviderInput,
): Promise<{ accepted: number }> {
  const { secret } = settings;
  if (!secret) throw createInboundNotConfiguredError("INBOUND_SECRET");
  const { message, onReceiveFailed, release } = await provider.readMessage({
    request,
    settings: { ...settings, secret },
    nowMs,
    mailgunTokens,
    spool,
  });
  try {
    const { accepted } = await receive(message);
    return { accepted };
  } catch (error) {
    // A release that fails leaves the token used: the provider's retry is then refused as a replay.
    await Promise.resolve(onReceiveFailed?.()).catch(() => undefined);
    throw error;
  } finally {
    // Answered: a spooled body has nothing left to give (the database has the message, or it was refused).
    await release?.().catch(() => undefined);
  }
}
