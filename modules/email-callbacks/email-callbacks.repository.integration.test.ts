// Ownership is part of the writes too: an update or a deletion names the owner in its own query, so
// another user's address, or a deleted one, is not found and not changed, whatever the caller
// checked before. An address another live callback holds answers email_callback.already_exists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import { createId } from "@/modules/shared/ids";
import { createTestDatabase } from "@/tests/support/test-database";
import { createEmailCallbacksRepository, type EmailCallbacksRepository } from "./email-callbacks.repository";

let database: Database;
let repository: EmailCallbacksRepository;
let alice: string;
let bob: string;

beforeAll(async () => {
  database = await createTestDatabase();
  repository = createEmailCallbacksRepository(database.prisma);
  [alice, bob] = [createId("user"), createId("user")];
  for (const id of [alice, bob]) await database.prisma.user.create({ data: { id, name: id, email: `${id}@example.com` } });
});
afterAll(() => database?.close());

const createCallback = (userId: string, username = `box-${Math.random().toString(36).slice(2, 10)}`) =>
  repository.createEmailCallback({
    id: createId("emailCallback"),
    userId,
    domain: "hookmail.test",
    username,
    webhookUrl: "https://example.com/hook",
  });

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: { code?: string }) => error.code,
  );

describe("the email callbacks repository's writes", () => {
  it("does not update another user's address, and leaves it as it was", async () => {
    const callback = await createCallback(alice);

    expect(
      await codeOf(repository.updateEmailCallback({ id: callback.id, userId: bob }, { webhookUrl: "https://evil.example/hook" })),
    ).toBe("email_callback.not_found");
    expect((await repository.findEmailCallback(callback.id, alice))?.webhookUrl).toBe("https://example.com/hook");
  });

  it("does not delete another user's address", async () => {
    const callback = await createCallback(alice);

    expect(await codeOf(repository.softDeleteEmailCallback({ id: callback.id, userId: bob }))).toBe("email_callback.not_found");
    expect(await repository.findEmailCallback(callback.id, alice)).not.toBeNull();
  });

  it("neither updates nor deletes again an address already deleted", async () => {
    const callback = await createCallback(alice);
    await repository.softDeleteEmailCallback({ id: callback.id, userId: alice });

    expect(await codeOf(repository.updateEmailCallback({ id: callback.id, userId: alice }, { isEnabled: true }))).toBe(
      "email_callback.not_found",
    );
    expect(await codeOf(repository.softDeleteEmailCallback({ id: callback.id, userId: alice }))).toBe("email_callback.not_found");
  });

  it("answers email_callback.already_exists for an address another live callback holds, on create and on update", async () => {
    const taken = await createCallback(alice);
    const other = await createCallback(bob);

    expect(await codeOf(createCallback(bob, taken.username))).toBe("email_callback.already_exists");
    expect(await codeOf(repository.updateEmailCallback({ id: other.id, userId: bob }, { username: taken.username }))).toBe(
      "email_callback.already_exists",
    );
  });
});
