// A mail accepted by a process that is killed (SIGKILL) before its first delivery attempt is
// delivered by the next process that opens the same database: acceptance is durable.

import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type DatabaseLocation, openDatabase } from "@/modules/db/db";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { silentLogger } from "@/modules/shared/logging/logger";
import { createTestDatabaseUrl } from "@/tests/support/test-database";
import { startWebhookSink } from "@/tests/support/webhook-sink";
import { createDeliveryWorker } from "./delivery-worker";

const cleanUps: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanUp of cleanUps.reverse()) await cleanUp();
});

async function createLocation(): Promise<DatabaseLocation> {
  const { url, drop } = await createTestDatabaseUrl();
  cleanUps.push(drop);
  return { url, poolSize: 2 };
}

function acceptInChildAndKill(location: DatabaseLocation, webhookUrl: string): Promise<string> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "tests/support/accept-and-die.ts", JSON.stringify(location), webhookUrl],
    {
      cwd: path.resolve(import.meta.dirname, "../.."),
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const id = output.match(/accepted (ep_\w+)/)?.[1];
      if (id) {
        child.kill("SIGKILL");
        child.once("exit", () => resolve(id));
      }
    });
    child.once("exit", (code) => {
      if (!output.includes("accepted")) reject(new Error(`child exited with ${code} before accepting`));
    });
  });
}

describe("durability", () => {
  it("delivers, from a new process, a mail whose accepting process was killed before delivering it", async () => {
    const sink = await startWebhookSink();
    cleanUps.push(() => sink.close());
    const location = await createLocation();

    const processingId = await acceptInChildAndKill(location, sink.url("/hook"));
    expect(sink.requests).toHaveLength(0);

    const database = await openDatabase(location);
    cleanUps.push(() => database.close());
    const worker = createDeliveryWorker({
      metrics: createProcessMetrics(),
      database,
      config: { webhook: { timeoutMs: 5000, allowPrivateTargets: true } },
      logger: silentLogger,
    });
    expect(await worker.deliverDue()).toBe(1);
    await worker.whenIdle();
    await worker.stop();

    expect(sink.requests).toHaveLength(1);
    expect(sink.requests[0]?.headers["webhook-id"]).toBe(processingId);
    const processing = await database.prisma.emailProcessing.findUniqueOrThrow({ where: { id: processingId } });
    expect(processing.status).toBe("success");
  }, 120_000);
});
