// What the processing routes hand to the usecases: the repository on the process's database.
import { getPrisma } from "@/modules/db/db";
import { createProcessingsRepository, type ProcessingsRepository } from "./processings.repository";

export async function getProcessingsRepository(): Promise<ProcessingsRepository> {
  return createProcessingsRepository(await getPrisma());
}
