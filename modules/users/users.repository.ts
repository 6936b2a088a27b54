// Prisma access to users. No rules here.
import type { PrismaClient } from "@/modules/db/generated/client";
import type { UserRecord } from "./users.models";

/** The columns a user's update may set; those left out keep their value. */
export type UserChanges = { name?: string; deliveryAlerts?: boolean; locale?: string };

const USER_FIELDS = { id: true, email: true, name: true, planId: true, emailVerified: true, deliveryAlerts: true } as const;

export function createUsersRepository(prisma: PrismaClient) {
  return {
    findUserById: (userId: string): Promise<UserRecord | null> =>
      prisma.user.findUnique({ where: { id: userId }, select: USER_FIELDS }),
    updateUser: (userId: string, changes: UserChanges): Promise<UserRecord> =>
      prisma.user.update({ where: { id: userId }, data: changes, select: USER_FIELDS }),
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
