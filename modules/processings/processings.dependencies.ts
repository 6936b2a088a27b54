// What the processing routes hand to the usecases: the repositories on the process's database.
import { getDatabase, getPrisma } from "@/modules/db/db";
import { createRateLimitRepository, type RateLimitRepository } from "@/modules/rate-limit/rate-limit.repository";
import { createProcessingsRepository, type ProcessingsRepository } from "./processings.repository";

export async function getProcessingsRepository(): Promise<ProcessingsRepository> {
  return createProcessingsRepository(await getDatabase());
}

/** The action rate limiter's counters (test mails, redeliveries), shared by every process. */
export async function getRateLimitRepository(): Promise<RateLimitRepository> {
  return createRateLimitRepository(await getPrisma());
}
