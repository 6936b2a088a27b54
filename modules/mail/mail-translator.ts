// The catalogues of the product's own mails: they are rendered outside React (in a request handler
// or the delivery worker), in the language their reader chose.
import { createTranslator } from "use-intl/core";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import type { Locale } from "@/modules/i18n/i18n.constants";
import type { Messages } from "@/modules/i18n/messages";

const CATALOGUES: Record<Locale, Messages> = { en, fr };

export function getMailTranslator(locale: Locale) {
  return createTranslator({ locale, messages: CATALOGUES[locale] });
}
