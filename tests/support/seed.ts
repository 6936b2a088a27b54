// Rows for tests and benchmarks, written through Prisma with defaults for everything a test does
// not care about: seedDatabase(database, { users, emailCallbacks, processings }) writes them in that
// order and answers them as written. Each row may name its own id; the rest of its columns default
// to an owner, an address on hookmail.test with a public webhook URL, a delivered mail. A mail that
// was or is being delivered (pending, success, error) gets its delivery to the address's first
// endpoint, with the mail's delivery state (seedDeliveryOf).
import type { Database } from "@/modules/db/db";
import type { EmailCallback, EmailProcessing, Prisma, User } from "@/modules/db/generated/client";
import { toAddressMatch } from "@/modules/email-callbacks/address-patterns";
import { PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import { createId } from "@/modules/shared/ids";

export type UserSeed = Partial<Prisma.UserUncheckedCreateInput>;
export type EmailCallbackSeed = Partial<Prisma.EmailCallbackUncheckedCreateInput> & { userId: string };
export type ProcessingSeed = Partial<Prisma.EmailProcessingUncheckedCreateInput> & {
  emailCallbackId: string;
  /** The claim of its delivery (a worker holding it until then). */
  lockedUntil?: Date | null;
};

export const SEED_DOMAIN = "hookmail.test";
export const SEED_WEBHOOK_URL = "https://hooks.example.com/incoming";

export async function seedDatabase(
  database: Pick<Database, "prisma">,
  {
    users = [],
    emailCallbacks = [],
    processings = [],
  }: { users?: UserSeed[]; emailCallbacks?: EmailCallbackSeed[]; processings?: ProcessingSeed[] },
): Promise<{ users: User[]; emailCallbacks: EmailCallback[]; processings: EmailProcessing[] }> {
  const written = { users: [] as User[], emailCallbacks: [] as EmailCallback[], processings: [] as EmailProcessing[] };
  for (const user of users) {
    const id = user.id ?? createId("user");
    written.users.push(await database.prisma.user.create({ data: { name: "Owner", email: `${id}@example.com`, ...user, id } }));
  }
  for (const emailCallback of emailCallbacks) {
    const id = emailCallback.id ?? createId("emailCallback");
    const username = emailCallback.username ?? `u-${id.slice(3).toLowerCase()}`;
    written.emailCallbacks.push(
      await database.prisma.emailCallback.create({
        data: {
          domain: SEED_DOMAIN,
          username,
          webhookUrl: SEED_WEBHOOK_URL,
          // How the username routes (a pattern or catch-all on a user's domain), as the app stores it.
          ...toAddressMatch(username),
          ...emailCallback,
          id,
        },
      }),
    );
  }
  for (const { lockedUntil, ...processing } of processings) {
    const row = await database.prisma.emailProcessing.create({
      data: {
        id: createId("emailProcessing"),
        fromAddress: "sender@example.org",
        recipient: `inbox@${SEED_DOMAIN}`,
        status: PROCESSING_STATUS.SUCCESS,
        ...processing,
      },
    });
    await seedDeliveryOf(database, row, { lockedUntil });
    written.processings.push(row);
  }
  return written;
}

const DELIVERED_STATUSES: string[] = [PROCESSING_STATUS.PENDING, PROCESSING_STATUS.SUCCESS, PROCESSING_STATUS.ERROR];

/**
 * The delivery of a seeded mail to its address's first endpoint, holding the mail's delivery state (as
 * the migration to endpoints wrote them): none for a mail that was not processed. Answers its id.
 */
export async function seedDeliveryOf(
  database: Pick<Database, "prisma">,
  processing: Pick<
    EmailProcessing,
    "id" | "emailCallbackId" | "status" | "error" | "attemptCount" | "nextAttemptAt" | "webhookResponseStatusCode" | "deliveredAt"
  >,
  { lockedUntil = null }: { lockedUntil?: Date | null } = {},
): Promise<string | null> {
  if (!DELIVERED_STATUSES.includes(processing.status)) return null;
  const endpoint = await database.prisma.endpoint.findFirstOrThrow({
    where: { emailCallbackId: processing.emailCallbackId, deletedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  const { id } = await database.prisma.delivery.create({
    data: {
      id: createId("delivery"),
      emailProcessingId: processing.id,
      endpointId: endpoint.id,
      status: processing.status,
      error: processing.status === PROCESSING_STATUS.ERROR ? processing.error : null,
      attemptCount: processing.attemptCount,
      nextAttemptAt: processing.nextAttemptAt,
      lockedUntil,
      lastStatusCode: processing.webhookResponseStatusCode,
      deliveredAt: processing.deliveredAt,
    },
    select: { id: true },
  });
  return id;
}

/** One user, as seedDatabase writes it. */
export async function seedUser(database: Pick<Database, "prisma">, user: UserSeed = {}): Promise<User> {
  const { users } = await seedDatabase(database, { users: [user] });
  return users[0]!;
}

/** One address, as seedDatabase writes it. */
export async function seedEmailCallback(
  database: Pick<Database, "prisma">,
  emailCallback: EmailCallbackSeed,
): Promise<EmailCallback> {
  const { emailCallbacks } = await seedDatabase(database, { emailCallbacks: [emailCallback] });
  return emailCallbacks[0]!;
}

/**
 * seedDeliveryOf for many mails at once (seeds of thousands of rows): one read of their addresses'
 * first endpoints and one insert. Answers each written delivery's id by its mail's id.
 */
export async function seedDeliveriesOf(
  database: Pick<Database, "prisma">,
  processings: (Parameters<typeof seedDeliveryOf>[1] & { lockedUntil?: Date | null })[],
): Promise<Map<string, string>> {
  const delivered = processings.filter((processing) => DELIVERED_STATUSES.includes(processing.status));
  const endpoints = await database.prisma.endpoint.findMany({
    where: { emailCallbackId: { in: [...new Set(delivered.map((processing) => processing.emailCallbackId))] }, deletedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, emailCallbackId: true },
  });
  const firstEndpoints = new Map<string, string>();
  for (const endpoint of endpoints) {
    if (!firstEndpoints.has(endpoint.emailCallbackId)) firstEndpoints.set(endpoint.emailCallbackId, endpoint.id);
  }
  const ids = new Map(delivered.map((processing) => [processing.id, createId("delivery")]));
  await database.prisma.delivery.createMany({
    data: delivered.map((processing) => ({
      id: ids.get(processing.id)!,
      emailProcessingId: processing.id,
      endpointId: firstEndpoints.get(processing.emailCallbackId)!,
      status: processing.status,
      error: processing.status === PROCESSING_STATUS.ERROR ? processing.error : null,
      attemptCount: processing.attemptCount,
      nextAttemptAt: processing.nextAttemptAt,
      lockedUntil: processing.lockedUntil ?? null,
      lastStatusCode: processing.webhookResponseStatusCode,
      deliveredAt: processing.deliveredAt,
    })),
  });
  return ids;
}
