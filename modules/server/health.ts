// Health of this process: 200 when the database answers, 503 otherwise.
import { getDatabase, isDatabaseReachable } from "@/modules/db/db";

export type Health = { status: "ok" | "unavailable"; database: "up" | "down" };

export async function getHealth(): Promise<Health> {
  const isUp = await getDatabase()
    .then((database) => isDatabaseReachable(database))
    .catch(() => false);
  return { status: isUp ? "ok" : "unavailable", database: isUp ? "up" : "down" };
}
