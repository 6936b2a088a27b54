// Types next-intl's hooks with our locales and the English catalogue.
import type { Locale } from "./i18n.constants";
import type { Messages } from "./messages";

declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
