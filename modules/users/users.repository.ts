// Prisma access to users. No rules here.
import type { PrismaClient } from "@/modules/db/generated/client";

export type UserRecord = { id: string; email: string; name: string; planId: string; emailVerified: boolean };

const USER_FIELDS = { id: true, email: true, name: true, planId: true, emailVerified: true } as const;

export function createUsersRepository(prisma: PrismaClient) {
  return {
    findUserById: (userId: string): Promise<UserRecord | null> =>
      prisma.user.findUnique({ where: { id: userId }, select: USER_FIELDS }),
    updateUserName: (userId: string, name: string): Promise<UserRecord> =>
      prisma.user.update({ where: { id: userId }, data: { name }, select: USER_FIELDS }),
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
