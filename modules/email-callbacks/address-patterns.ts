// Usernames that are patterns (`orders-*`) or a domain's catch-all (`*`), and how they are stored
// for the routing query: a LIKE pattern and a count of literal characters (docs/domains.md: Routing).
import { ADDRESS_MATCH_KIND, type AddressMatchKind, USERNAME_WILDCARD } from "./email-callbacks.constants";

export type AddressMatch = { matchKind: AddressMatchKind; likePattern: string; literalCount: number };

export function isCatchAllUsername(username: string): boolean {
  return username === USERNAME_WILDCARD;
}

/** A pattern or the catch-all: a username with at least one `*`. */
export function isWildcardUsername(username: string): boolean {
  return username.includes(USERNAME_WILDCARD);
}

/** The characters of the username other than `*` (the catch-all has none). */
export function countLiteralCharacters(username: string): number {
  return username.split(USERNAME_WILDCARD).join("").length;
}

/** `*` alone, or a username with `*` and at least one other character (`**` is no pattern). */
export function isValidUsernamePattern(username: string): boolean {
  return isCatchAllUsername(username) || (isWildcardUsername(username) && countLiteralCharacters(username) > 0);
}

/**
 * The username as a LIKE pattern (with LIKE's default escape, `\`): `\`, `%` and `_` stand for
 * themselves, and each `*` becomes `_%`, one character then any number: one or more characters.
 * `orders_*` → `orders\_\_%`. An exact username becomes a pattern matching only itself.
 */
export function toLikePattern(username: string): string {
  return username
    .split(USERNAME_WILDCARD)
    .map((literal) => literal.replace(/[\\%_]/g, (character) => `\\${character}`))
    .join("_%");
}

function toMatchKind(username: string): AddressMatchKind {
  if (isCatchAllUsername(username)) return ADDRESS_MATCH_KIND.CATCH_ALL;
  return isWildcardUsername(username) ? ADDRESS_MATCH_KIND.PATTERN : ADDRESS_MATCH_KIND.EXACT;
}

/** What the routing query reads of an address, stored beside its username. */
export function toAddressMatch(username: string): AddressMatch {
  return {
    matchKind: toMatchKind(username),
    likePattern: toLikePattern(username),
    literalCount: countLiteralCharacters(username),
  };
}
