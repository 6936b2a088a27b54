import { ApiKeyList } from "@/modules/api-keys/components/api-key-list";

export default function ApiKeysPage() {
  return <ApiKeyList />;
}
