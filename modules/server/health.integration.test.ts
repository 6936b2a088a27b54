import { describe, expect, it } from "vitest";
import { setProcessDatabase } from "@/modules/db/db";
import { createTestDatabase } from "@/tests/support/test-database";
import { getHealth } from "./health";

describe("getHealth", () => {
  it("is ok while the database answers, and unavailable once it does not", async () => {
    const database = await createTestDatabase();
    setProcessDatabase(database);
    expect(await getHealth()).toEqual({ status: "ok", database: "up" });

    await database.close();
    expect(await getHealth()).toEqual({ status: "unavailable", database: "down" });
  });
});
