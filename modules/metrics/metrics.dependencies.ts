// How GET /api/metrics and the metrics listener get their repository: over the process's database,
// opened on first use.
import type { Database } from "@/modules/db/db";
import { createMetricsRepository, type MetricsRepository } from "./metrics.repository";

export const getMetricsRepository = async (database: () => Promise<Database>): Promise<MetricsRepository> =>
  createMetricsRepository(await database());
