import { LanguageSwitcher } from "@/modules/i18n/components/language-switcher";
import { pageTitle } from "@/modules/i18n/page-title";
import { NotFound } from "@/modules/shared/components/not-found";

export const generateMetadata = pageTitle("notFound");

export default function NotFoundPage() {
  return <NotFound languageSwitch={<LanguageSwitcher />} />;
}
