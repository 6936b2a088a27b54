// Message catalogues. English is the source of truth and the type of every catalogue.
import type en from "@/messages/en.json";
import type { Locale } from "./i18n.constants";

export type Messages = typeof en;

export async function loadMessages(locale: Locale): Promise<Messages> {
  const catalogue = locale === "fr" ? await import("@/messages/fr.json") : await import("@/messages/en.json");
  return catalogue.default;
}
