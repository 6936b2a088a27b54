// How GET /api/metrics gets its repository: over the process's database, opened on first use.
import { getDatabase } from "@/modules/db/db";
import { createMetricsRepository, type MetricsRepository } from "./metrics.repository";

export const getMetricsRepository = async (): Promise<MetricsRepository> => createMetricsRepository(await getDatabase());
