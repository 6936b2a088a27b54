// Our zod schemas carry i18n keys as messages so forms can show them in the user's language.
// API callers get the English text instead.
import en from "@/messages/en.json";

export function translateToEnglish(message: string): string {
  let node: unknown = en;
  for (const part of message.split(".")) {
    if (typeof node !== "object" || node === null || !(part in node)) return message;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : message;
}
