import { ApiKeyList } from "@/modules/api-keys/components/api-key-list";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("apiKeys");

export default function ApiKeysPage() {
  return <ApiKeyList />;
}
