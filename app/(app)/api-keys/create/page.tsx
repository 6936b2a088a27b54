import { CreateApiKey } from "@/modules/api-keys/components/create-api-key";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("newApiKey");

export default function CreateApiKeyPage() {
  return <CreateApiKey />;
}
