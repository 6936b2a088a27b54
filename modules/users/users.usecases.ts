// Rules of the account: a user reads and changes only themselves. Saving their settings also
// records the language they use the app in: the mails sent outside a request (delivery alerts)
// are written in it.
import type { Locale } from "@/modules/i18n/i18n.constants";
import { createUnauthorizedError } from "@/modules/shared/errors/app-error";
import type { UserRecord } from "./users.models";
import type { UsersRepository } from "./users.repository";
import type { UpdateUserInput } from "./users.schemas";

/** The signed-in user's account; a session whose account is gone is no session. */
export async function getUserOrThrow({
  userId,
  repository,
}: {
  userId: string;
  repository: UsersRepository;
}): Promise<{ user: UserRecord }> {
  const user = await repository.findUserById(userId);
  if (!user) throw createUnauthorizedError();
  return { user };
}

export async function updateUser({
  userId,
  input,
  locale,
  repository,
}: {
  userId: string;
  input: UpdateUserInput;
  /** The language of the request that saved the settings. */
  locale: Locale;
  repository: UsersRepository;
}): Promise<{ user: UserRecord }> {
  const { name, deliveryAlerts } = input;
  return {
    user: await repository.updateUser(userId, {
      ...(name === undefined ? {} : { name }),
      ...(deliveryAlerts === undefined ? {} : { deliveryAlerts }),
      locale,
    }),
  };
}
