// The delivery worker of one process: a loop claiming due deliveries (retries, and whatever a crashed
// process left behind) about every second, `deliverSoon` for the first attempt of mail this process
// has just accepted, at most `concurrency` attempts at a time, and once a day the clean-up of message
// content that is no longer needed. Any number of workers share one PostgreSQL database.
import type { KeyObject } from "node:crypto";
import type { Config } from "@/modules/config/config";
import type { Database } from "@/modules/db/db";
import { measureDeliveryAttempt } from "@/modules/metrics/metrics";
import type { ProcessMetrics } from "@/modules/metrics/metrics.registry";
import type { Logger } from "@/modules/shared/logging/logger";
import type { HostResolver } from "@/modules/shared/net/webhook-target";
import { DELIVERY_WORKER_DEFAULTS, ENDPOINT_TIMEOUT_MAX_MS } from "./delivery.constants";
import { type ClaimedDelivery, createDeliveryRepository, type DeliveryRepository } from "./delivery.repository";
import { attemptDelivery } from "./delivery.usecases";
import type { DeliveryAlerts } from "./delivery-alerts";
import type { DeliveryDispatcher } from "./delivery-dispatcher";
import { postWebhook, type WebhookClient } from "./webhook-client";

export type { DeliveryDispatcher } from "./delivery-dispatcher";

/** Where the queue lives: the database, or a repository over it (tests). */
export type DeliveryStorage =
  | { database: Pick<Database, "prisma" | "executor">; repository?: DeliveryRepository }
  | { database?: undefined; repository: DeliveryRepository };

export type DeliveryWorkerOptions = DeliveryStorage & {
  config: Pick<Config, "webhook">;
  logger: Logger;
  /** Where each attempt's outcome and duration are counted. */
  metrics: ProcessMetrics;
  clock?: () => Date;
  random?: () => number;
  client?: WebhookClient;
  /** Alert and recovery mails to owners after final failures and successes (delivery-alerts.ts); none when left out. */
  alerts?: DeliveryAlerts;
  /** Decrypts Ed25519 endpoints' private keys (signing-keys.ts: deriveSigningKeyEncryptionKey). */
  signingKeyEncryptionKey?: KeyObject;
  /** Name resolution for the default client (tests). */
  resolve?: HostResolver;
  pollIntervalMs?: number;
  concurrency?: number;
  leaseMs?: number;
  cleanUpIntervalMs?: number;
  contentRetentionMs?: number;
  cleanUpBatchSize?: number;
};

export type DeliveryWorker = DeliveryDispatcher & {
  /** Starts the polling loop (and the daily clean-up). */
  start: () => void;
  /** Stops claiming and waits for the attempts in flight; unstarted first attempts are left (or given back) due for any worker. */
  stop: () => Promise<void>;
  /** One poll: claims up to the free capacity and starts those attempts; answers how many were claimed. */
  deliverDue: () => Promise<number>;
  /** Resolves once no attempt is running or waiting. */
  whenIdle: () => Promise<void>;
  /** Drops the raw message and payload of final processings past the retention; answers how many. */
  cleanUpMessageContent: () => Promise<number>;
};

type Task = () => Promise<void>;

function getRepository(storage: DeliveryStorage): DeliveryRepository {
  if (storage.repository) return storage.repository;
  if (storage.database) return createDeliveryRepository(storage.database);
  throw new Error("a delivery worker needs a database or a repository");
}

export function createDeliveryWorker({
  config,
  logger,
  metrics,
  clock = () => new Date(),
  random = Math.random,
  resolve,
  alerts,
  signingKeyEncryptionKey,
  client = resolve ? { postWebhook: (request) => postWebhook({ ...request, resolve }) } : { postWebhook },
  pollIntervalMs = DELIVERY_WORKER_DEFAULTS.pollIntervalMs,
  concurrency = DELIVERY_WORKER_DEFAULTS.concurrency,
  leaseMs = config.webhook.timeoutMs + DELIVERY_WORKER_DEFAULTS.leaseMarginMs,
  cleanUpIntervalMs = DELIVERY_WORKER_DEFAULTS.cleanUpIntervalMs,
  contentRetentionMs = DELIVERY_WORKER_DEFAULTS.contentRetentionMs,
  cleanUpBatchSize = DELIVERY_WORKER_DEFAULTS.cleanUpBatchSize,
  ...storage
}: DeliveryWorkerOptions): DeliveryWorker {
  const repository = getRepository(storage);
  let isRunning = false;
  let isStopping = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let currentPoll: Promise<void> | undefined;
  let currentCleanUp: Promise<unknown> | undefined;
  let lastCleanUpAt: number | undefined;
  let active = 0;
  const waiting: Task[] = [];
  let idleWaiters: (() => void)[] = [];

  const attempt = async (claim: ClaimedDelivery) => {
    const outcome = await measureDeliveryAttempt(metrics, () =>
      attemptDelivery({ ...claim, repository, client, config, now: clock, random, logger, signingKeyEncryptionKey }),
    );
    await alerts?.afterDelivery({ deliveryId: claim.id, outcome, now: clock() });
  };

  const settleIdle = () => {
    if (active > 0 || waiting.length > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolveIdle of waiters) resolveIdle();
  };

  const runTask = (task: Task) => {
    active += 1;
    task()
      .catch((error: unknown) => logger.error({ err: error }, "Delivery task failed"))
      .finally(() => {
        active -= 1;
        const next = waiting.shift();
        if (next) runTask(next);
        settleIdle();
      });
  };

  const schedule = (task: Task) => {
    if (active < concurrency) runTask(task);
    else waiting.push(task);
  };

  const deliverSoon = (ids: string[]) => {
    if (isStopping) return;
    for (const id of ids) {
      schedule(async () => {
        // Left unclaimed on shutdown: the row stays due and a worker loop picks it up.
        if (isStopping) return;
        const claim = await repository.claimDelivery({ id, leaseMs, now: clock() });
        if (claim) await attempt(claim);
      });
    }
  };

  /**
   * A claim taken when the mail was written: renewed when too little of its lease is left for an
   * attempt, by the endpoint's own timeout when the claim carries it (it may be longer than the configured one).
   */
  const deliverClaimed = (claims: ClaimedDelivery[]) => {
    for (const claim of claims) {
      schedule(async () => {
        if (isStopping) {
          await repository.releaseClaim(claim);
          return;
        }
        const current = clock();
        // Without its target (a large body, read at the attempt), the endpoint's timeout is not known yet: the longest one an endpoint may set.
        const timeoutMs = claim.target
          ? (claim.target.timeoutMs ?? config.webhook.timeoutMs)
          : Math.max(config.webhook.timeoutMs, ENDPOINT_TIMEOUT_MAX_MS);
        const isLeaseShort = claim.lockedUntil.getTime() - current.getTime() < timeoutMs + DELIVERY_WORKER_DEFAULTS.renewMarginMs;
        const held = isLeaseShort ? await repository.renewClaim({ claim, leaseMs, now: current }) : claim;
        if (held) await attempt(held);
      });
    }
  };

  const deliverDue = async () => {
    const free = concurrency - active - waiting.length;
    if (isStopping || free <= 0) return 0;
    const claims = await repository.claimDueDeliveries({ limit: free, leaseMs, now: clock() });
    for (const claim of claims) schedule(() => attempt(claim));
    return claims.length;
  };

  const cleanUpMessageContent = async () => {
    const changedBefore = new Date(clock().getTime() - contentRetentionMs);
    let total = 0;
    for (;;) {
      const cleared = await repository.clearMessageContent({ changedBefore, batchSize: cleanUpBatchSize });
      total += cleared;
      if (cleared < cleanUpBatchSize || isStopping) break;
    }
    if (total > 0) logger.info({ processings: total }, "Dropped the message content of processings older than the retention");
    return total;
  };

  const cleanUpIfDue = () => {
    const nowMs = clock().getTime();
    if (isStopping || currentCleanUp || (lastCleanUpAt !== undefined && nowMs - lastCleanUpAt < cleanUpIntervalMs)) return;
    lastCleanUpAt = nowMs;
    currentCleanUp = cleanUpMessageContent()
      .catch((error: unknown) => logger.error({ err: error }, "Clean-up failed"))
      .finally(() => {
        currentCleanUp = undefined;
      });
  };

  const poll = async () => {
    try {
      await deliverDue();
    } catch (error) {
      logger.error({ err: error }, "Claiming due deliveries failed");
    }
    cleanUpIfDue();
  };

  const scheduleNextPoll = () => {
    if (isStopping) return;
    pollTimer = setTimeout(() => {
      currentPoll = poll().finally(() => {
        currentPoll = undefined;
        scheduleNextPoll();
      });
    }, pollIntervalMs);
    pollTimer.unref();
  };

  return {
    deliverSoon,
    deliverClaimed,
    // A full queue takes no more claims: the mail is then left due for whichever worker is free.
    getClaimLeaseMs: () => (isStopping || waiting.length >= concurrency ? null : leaseMs),
    deliverDue,
    cleanUpMessageContent,
    whenIdle: () =>
      new Promise<void>((resolveIdle) => {
        idleWaiters.push(resolveIdle);
        settleIdle();
      }),
    start() {
      if (isRunning || isStopping) return;
      isRunning = true;
      currentPoll = poll().finally(() => {
        currentPoll = undefined;
        scheduleNextPoll();
      });
    },
    async stop() {
      isStopping = true;
      clearTimeout(pollTimer);
      await currentPoll;
      await currentCleanUp;
      await new Promise<void>((resolveIdle) => {
        idleWaiters.push(resolveIdle);
        settleIdle();
      });
    },
  };
}
