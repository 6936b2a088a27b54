// Random usernames for the "random" button of the email form:
// adjective-animal-number, lower case, the number from 0 to 999, e.g. "brave-otter-42".
import { RANDOM_USERNAME_MAX_NUMBER } from "./email-callbacks.constants";

export const USERNAME_ADJECTIVES = [
  "agile", "amber", "ancient", "bold", "brave", "bright", "brisk", "calm", "clever", "cosmic",
  "crisp", "curious", "daring", "dusty", "eager", "early", "fancy", "fearless", "fluffy", "frosty",
  "gentle", "giant", "golden", "happy", "hidden", "humble", "jolly", "keen", "kind", "lively",
  "lucky", "mellow", "merry", "mighty", "misty", "nimble", "noble", "polite", "proud", "quick",
  "quiet", "rapid", "rusty", "shiny", "silent", "silver", "sleepy", "smooth", "snowy", "sunny",
  "swift", "tidy", "tiny", "velvet", "vivid", "wandering", "warm", "wise", "witty", "zesty",
] as const;

export const USERNAME_ANIMALS = [
  "alpaca", "badger", "beaver", "bison", "camel", "cheetah", "cobra", "condor", "coyote", "crane",
  "dolphin", "eagle", "falcon", "ferret", "finch", "fox", "gazelle", "gecko", "heron", "ibis",
  "jaguar", "koala", "lemur", "leopard", "lynx", "marmot", "meerkat", "moose", "narwhal", "ocelot",
  "octopus", "orca", "otter", "owl", "panda", "panther", "parrot", "pelican", "penguin", "puffin",
  "quokka", "rabbit", "raccoon", "raven", "salmon", "seal", "sparrow", "squid", "stork", "swan",
  "tapir", "tiger", "toucan", "turtle", "walrus", "weasel", "whale", "wolf", "wombat", "zebra",
] as const;

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** `random` returns a number in [0, 1), like Math.random (injectable for tests). */
export function generateRandomUsername(random: () => number = Math.random): string {
  const adjective = pick(USERNAME_ADJECTIVES, random);
  const animal = pick(USERNAME_ANIMALS, random);
  const number = Math.floor(random() * (RANDOM_USERNAME_MAX_NUMBER + 1));
  return `${adjective}-${animal}-${number}`;
}
