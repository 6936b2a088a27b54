import { describe, expect, it } from "vitest";
import { createTestDatabase } from "@/tests/support/test-database";
import { getHealth } from "./health";

describe("getHealth", () => {
  it("is ok while the database answers, and unavailable once it does not", async () => {
    const database = await createTestDatabase();
    const opened = async () => database;
    expect(await getHealth(opened)).toEqual({ status: "ok", database: "up" });

    await database.close();
    expect(await getHealth(opened)).toEqual({ status: "unavailable", database: "down" });
  });
});
