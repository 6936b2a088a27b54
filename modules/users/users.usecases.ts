// Rules of the account: a user reads and renames only themselves.

import type { UserRecord, UsersRepository } from "./users.repository";
import type { UpdateUserInput } from "./users.schemas";

export async function updateUser({
  userId,
  input,
  repository,
}: {
  userId: string;
  input: UpdateUserInput;
  repository: UsersRepository;
}): Promise<{ user: UserRecord }> {
  return { user: await repository.updateUserName(userId, input.name) };
}
