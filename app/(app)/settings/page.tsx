import { pageTitle } from "@/modules/i18n/page-title";
import { AccountSettingsPage } from "@/modules/users/components/account-settings-page";

export const generateMetadata = pageTitle("settings");

export default function SettingsPage() {
  return <AccountSettingsPage />;
}
