import { CreateApiKey } from "@/modules/api-keys/components/create-api-key";

export default function CreateApiKeyPage() {
  return <CreateApiKey />;
}
