// Rows for tests and benchmarks, written through Prisma with defaults for everything a test does
// not care about: seedDatabase(database, { users, emailCallbacks, processings }) writes them in that
// order and answers them as written. Each row may name its own id; the rest of its columns default
// to an owner, an address on hookmail.test with a public webhook URL, a delivered mail.
import type { Database } from "@/modules/db/db";
import type { EmailCallback, EmailProcessing, Prisma, User } from "@/modules/db/generated/client";
import { toAddressMatch } from "@/modules/email-callbacks/address-patterns";
import { PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import { createId } from "@/modules/shared/ids";

export type UserSeed = Partial<Prisma.UserUncheckedCreateInput>;
export type EmailCallbackSeed = Partial<Prisma.EmailCallbackUncheckedCreateInput> & { userId: string };
export type ProcessingSeed = Partial<Prisma.EmailProcessingUncheckedCreateInput> & { emailCallbackId: string };

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
  for (const processing of processings) {
    written.processings.push(
      await database.prisma.emailProcessing.create({
        data: {
          id: createId("emailProcessing"),
          fromAddress: "sender@example.org",
          recipient: `inbox@${SEED_DOMAIN}`,
          status: PROCESSING_STATUS.SUCCESS,
          ...processing,
        },
      }),
    );
  }
  return written;
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
