// Child process of the durability test: opens the database it is given, accepts one message
// through the pipeline (no delivery dispatcher, as if the process died before its first attempt),
// prints the processing id, then waits to be killed.

import { type DatabaseLocation, migrateDatabase, openDatabase } from "@/modules/db/db";
import { createInboundRepository } from "@/modules/inbound/inbound.repository";
import { acceptMessage } from "@/modules/inbound/inbound.usecases";
import { createParsePool } from "@/modules/inbound/parse-pool";
import { silentLogger } from "@/modules/shared/logging/logger";
import { seedEmailCallback, seedUser } from "./seed";

const location = JSON.parse(process.argv[2] ?? "{}") as DatabaseLocation;
const webhookUrl = process.argv[3] ?? "";
const database = await openDatabase(location);
await migrateDatabase(database, silentLogger);
const { id: userId } = await seedUser(database, { name: "Durable" });
await seedEmailCallback(database, { userId, username: "durable", webhookUrl, webhookSecret: "durability-secret-123456" });
const raw = Buffer.from(
  "From: bob@example.org\r\nTo: durable@hookmail.test\r\nSubject: survive\r\nMessage-ID: <d1@example.org>\r\n\r\nstill here\r\n",
);
const { pendingIds } = await acceptMessage({
  raw,
  envelope: { from: "bob@example.org", to: ["durable@hookmail.test"] },
  repository: createInboundRepository(database),
  rules: { emailDomains: ["hookmail.test"] },
  parser: createParsePool(),
});
process.stdout.write(`accepted ${pendingIds[0]}\n`);
setInterval(() => undefined, 1000);
