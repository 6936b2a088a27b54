// What the database keeps in step (docs/architecture.md: The data): an address's webhookUrl and
// webhookSecret are its first live endpoint's, both ways; a mail's delivery state is what its
// deliveries say (error when one gave up, else pending while one is, else success), whoever writes them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import { createId } from "@/modules/shared/ids";
import { seedEmailCallback, seedUser } from "@/tests/support/seed";
import { createTestDatabasePair } from "@/tests/support/test-database";

let database: Database;
let otherDatabase: Database;
let close: () => Promise<void>;
let userId: string;

beforeAll(async () => {
  ({ database, otherDatabase, close } = await createTestDatabasePair());
  userId = (await seedUser(database)).id;
});
afterAll(async () => close?.());

const liveEndpoints = (emailCallbackId: string) =>
  database.prisma.endpoint.findMany({
    where: { emailCallbackId, deletedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
const callbackOf = (id: string) =>
  database.prisma.emailCallback.findUniqueOrThrow({ where: { id }, select: { webhookUrl: true, webhookSecret: true } });

async function addEndpoint(emailCallbackId: string, data: { url: string; signingScheme?: string; secret?: string | null }) {
  return database.prisma.endpoint.create({
    data: { id: createId("endpoint"), emailCallbackId, signingScheme: "hmac", ...data, createdAt: new Date(Date.now() + 1000) },
  });
}

describe("an address's first endpoint", () => {
  it("is made from a new address's webhook: its URL, and its secret (hmac) or none", async () => {
    const signed = await seedEmailCallback(database, {
      userId,
      webhookUrl: "https://a.example/hook",
      webhookSecret: "s3cret-s3cret",
    });
    const unsigned = await seedEmailCallback(database, { userId, webhookUrl: "https://b.example/hook", webhookSecret: null });
    expect(await liveEndpoints(signed.id)).toMatchObject([
      { url: "https://a.example/hook", signingScheme: "hmac", secret: "s3cret-s3cret" },
    ]);
    expect(await liveEndpoints(unsigned.id)).toMatchObject([
      { url: "https://b.example/hook", signingScheme: "none", secret: null },
    ]);
  });

  it("changes with the address's webhookUrl and webhookSecret, and only the first one does", async () => {
    const { id } = await seedEmailCallback(database, {
      userId,
      webhookUrl: "https://a.example/1",
      webhookSecret: "first-secret",
    });
    await addEndpoint(id, { url: "https://archive.example/", secret: "archive-secret" });
    await database.prisma.emailCallback.update({
      where: { id },
      data: { webhookUrl: "https://a.example/2", webhookSecret: null },
    });
    expect(await liveEndpoints(id)).toMatchObject([
      { url: "https://a.example/2", signingScheme: "none", secret: null },
      { url: "https://archive.example/", signingScheme: "hmac", secret: "archive-secret" },
    ]);
  });

  it("is copied back to the address when it changes, and the next one becomes the address's when it is deleted", async () => {
    const { id } = await seedEmailCallback(database, {
      userId,
      webhookUrl: "https://a.example/1",
      webhookSecret: "first-secret",
    });
    const [first] = await liveEndpoints(id);
    await addEndpoint(id, { url: "https://archive.example/", secret: "archive-secret" });
    await database.prisma.endpoint.update({ where: { id: first!.id }, data: { url: "https://a.example/moved" } });
    expect(await callbackOf(id)).toEqual({ webhookUrl: "https://a.example/moved", webhookSecret: "first-secret" });
    await database.prisma.endpoint.update({ where: { id: first!.id }, data: { deletedAt: new Date() } });
    expect(await callbackOf(id)).toEqual({ webhookUrl: "https://archive.example/", webhookSecret: "archive-secret" });
  });

  it("answers webhookSecret null for a first endpoint signed with Ed25519", async () => {
    const { id } = await seedEmailCallback(database, {
      userId,
      webhookUrl: "https://a.example/1",
      webhookSecret: "first-secret",
    });
    const [first] = await liveEndpoints(id);
    await database.prisma.endpoint.update({
      where: { id: first!.id },
      data: { signingScheme: "ed25519", secret: null, publicKey: "whpk_x", privateKeyEncrypted: "v1.x" },
    });
    expect(await callbackOf(id)).toEqual({ webhookUrl: "https://a.example/1", webhookSecret: null });
  });
});

describe("a mail's delivery state", () => {
  async function seedMail(endpointCount: number) {
    const { id: emailCallbackId } = await seedEmailCallback(database, { userId });
    for (let index = 1; index < endpointCount; index += 1)
      await addEndpoint(emailCallbackId, { url: `https://e${index}.example/` });
    const endpoints = await liveEndpoints(emailCallbackId);
    const { id } = await database.prisma.emailProcessing.create({
      data: {
        id: createId("emailProcessing"),
        emailCallbackId,
        fromAddress: "a@b.example",
        recipient: "x@hookmail.test",
        status: "pending",
      },
    });
    const deliveries = [];
    for (const endpoint of endpoints) {
      deliveries.push(
        await database.prisma.delivery.create({
          data: { id: createId("delivery"), emailProcessingId: id, endpointId: endpoint.id, status: "pending" },
        }),
      );
    }
    return { id, deliveryIds: deliveries.map((delivery) => delivery.id) };
  }
  const mail = (id: string) => database.prisma.emailProcessing.findUniqueOrThrow({ where: { id } });
  const setDelivery = (
    db: Database,
    id: string,
    data: { status: string; attemptCount?: number; lastStatusCode?: number; error?: string },
  ) => db.prisma.delivery.update({ where: { id }, data });

  it("stays pending while one delivery is, is success once all are, sums their attempts and shows the last status code", async () => {
    const {
      id,
      deliveryIds: [one, two],
    } = await seedMail(2);
    await setDelivery(database, one!, { status: "success", attemptCount: 1, lastStatusCode: 200 });
    expect(await mail(id)).toMatchObject({ status: "pending", attemptCount: 1 });
    await setDelivery(database, two!, { status: "success", attemptCount: 2, lastStatusCode: 204 });
    expect(await mail(id)).toMatchObject({ status: "success", attemptCount: 3, webhookResponseStatusCode: 204, error: null });
  });

  it("is error / webhook-failed as soon as one delivery gave up, even while another is still pending", async () => {
    const {
      id,
      deliveryIds: [one],
    } = await seedMail(2);
    await setDelivery(database, one!, { status: "error", error: "webhook-failed", attemptCount: 7, lastStatusCode: 500 });
    expect(await mail(id)).toMatchObject({
      status: "error",
      error: "webhook-failed",
      attemptCount: 7,
      webhookResponseStatusCode: 500,
    });
  });

  it("is not changed by a claim (only the lease moves)", async () => {
    const {
      id,
      deliveryIds: [one],
    } = await seedMail(1);
    const before = await mail(id);
    await database.prisma.delivery.update({ where: { id: one! }, data: { lockedUntil: new Date(Date.now() + 60_000) } });
    expect((await mail(id)).updatedAt).toEqual(before.updatedAt);
  });

  it("sees both outcomes when two processes record the two deliveries of one mail at the same moment", async () => {
    for (let round = 0; round < 10; round += 1) {
      const {
        id,
        deliveryIds: [one, two],
      } = await seedMail(2);
      await Promise.all([
        setDelivery(database, one!, { status: "success", attemptCount: 1, lastStatusCode: 200 }),
        setDelivery(otherDatabase, two!, { status: "success", attemptCount: 1, lastStatusCode: 200 }),
      ]);
      expect(await mail(id)).toMatchObject({ status: "success", attemptCount: 2 });
    }
  });
});
