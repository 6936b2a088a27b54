// The routing query reads one recipient's exact address and its domain's patterns through their
// indexes, never the whole table (docs/domains.md: Routing): the plan PostgreSQL makes for it with an
// operator domain of thousands of addresses, a user domain of many patterns, and thousands of domains.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import { toAddressMatch } from "@/modules/email-callbacks/address-patterns";
import { createId } from "@/modules/shared/ids";
import { seedUser } from "@/tests/support/seed";
import { createTestDatabase } from "@/tests/support/test-database";
import { FIND_ROUTE } from "./routing.repository";

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  const { id: userId } = await seedUser(database);
  const domain = (name: string) => ({ id: createId("domain"), userId, name, token: "t", status: "verified" });
  await database.prisma.domain.createMany({
    data: [domain("shop.example"), ...Array.from({ length: 2000 }, (_, index) => domain(`d${index}.example`))],
  });
  const address = (domain: string, username: string) => ({
    id: createId("emailCallback"),
    userId,
    domain,
    username,
    webhookUrl: "https://hooks.example.com/incoming",
    ...toAddressMatch(username),
  });
  await database.prisma.emailCallback.createMany({
    data: [
      ...Array.from({ length: 3000 }, (_, index) => address("hookmail.test", `user${index}`)),
      ...Array.from({ length: 50 }, (_, index) => address("shop.example", `p${index}-*`)),
      address("shop.example", "*"),
    ],
  });
  await database.executor.query("ANALYZE email_callback");
  await database.executor.query("ANALYZE domain");
}, 60_000);
afterAll(() => database?.close());

async function planOf(parameters: unknown[]): Promise<string> {
  const rows = await database.executor.query<{ "QUERY PLAN": string }>(`EXPLAIN ${FIND_ROUTE.text}`, parameters);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

describe("the routing query", () => {
  it("finds the exact address and the domain's patterns through their indexes, and the holder through the held names' index", async () => {
    for (const parameters of [
      ["hookmail.test", "user5", ["hookmail.test"]],
      ["shop.example", "p3-x", ["hookmail.test"]],
    ]) {
      const plan = await planOf(parameters);
      expect(plan).toContain("email_callback_live_address_key");
      expect(plan).toContain("email_callback_domain_pattern_idx");
      expect(plan).not.toMatch(/Seq Scan on (email_callback|domain)/);
    }
    expect(await planOf(["shop.example", "p3-x", []])).toContain("domain_held_name_key");
  });
});
