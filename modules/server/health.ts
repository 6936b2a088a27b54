// Health of this process: 200 when the database answers, 503 otherwise.
import { type Database, isDatabaseReachable } from "@/modules/db/db";

export type Health = { status: "ok" | "unavailable"; database: "up" | "down" };

export async function getHealth(database: () => Promise<Database>): Promise<Health> {
  const isUp = await database()
    .then((opened) => isDatabaseReachable(opened))
    .catch(() => false);
  return { status: isUp ? "ok" : "unavailable", database: isUp ? "up" : "down" };
}
