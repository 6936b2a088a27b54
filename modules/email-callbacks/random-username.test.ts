import { describe, expect, it } from "vitest";
import { RESERVED_USERNAMES } from "./email-callbacks.constants";
import { usernameSchema } from "./email-callbacks.schemas";
import { generateRandomUsername, USERNAME_ADJECTIVES, USERNAME_ANIMALS } from "./random-username";

describe("generateRandomUsername", () => {
  it("joins an adjective, an animal and a number with dashes, in lower case", () => {
    for (let i = 0; i < 200; i += 1) {
      expect(generateRandomUsername()).toMatch(/^[a-z]+-[a-z]+-\d{1,3}$/);
    }
  });

  it("draws the number from 0 to 999", () => {
    expect(generateRandomUsername(() => 0)).toBe(`${USERNAME_ADJECTIVES[0]}-${USERNAME_ANIMALS[0]}-0`);
    expect(generateRandomUsername(() => 0.999_999)).toBe(`${USERNAME_ADJECTIVES.at(-1)}-${USERNAME_ANIMALS.at(-1)}-999`);
  });

  it("produces usernames the email form accepts", () => {
    for (let i = 0; i < 200; i += 1) {
      expect(usernameSchema.safeParse(generateRandomUsername()).success).toBe(true);
    }
  });

  it("uses only lower-case words that are not reserved", () => {
    for (const word of [...USERNAME_ADJECTIVES, ...USERNAME_ANIMALS]) {
      expect(word).toMatch(/^[a-z]+$/);
      expect(RESERVED_USERNAMES.has(word)).toBe(false);
    }
    expect(new Set(USERNAME_ADJECTIVES).size).toBe(USERNAME_ADJECTIVES.length);
    expect(new Set(USERNAME_ANIMALS).size).toBe(USERNAME_ANIMALS.length);
  });
});
