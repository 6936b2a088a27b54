// What the processing routes hand to the usecases: the repositories on the process's database.
import type { Database } from "@/modules/db/db";
import type { PrismaClient } from "@/modules/db/generated/client";
import { createRateLimitRepository, type RateLimitRepository } from "@/modules/rate-limit/rate-limit.repository";
import { createProcessingsRepository, type ProcessingsRepository } from "./processings.repository";

export async function getProcessingsRepository({
  database,
}: {
  database: () => Promise<Database>;
}): Promise<ProcessingsRepository> {
  return createProcessingsRepository(await database());
}

/** The action rate limiter's counters (test mails, redeliveries), shared by every process. */
export async function getRateLimitRepository({ prisma }: { prisma: () => Promise<PrismaClient> }): Promise<RateLimitRepository> {
  return createRateLimitRepository(await prisma());
}
