import { WebhookDocs } from "@/modules/delivery/components/webhook-docs";

export default function WebhooksPage() {
  return <WebhookDocs />;
}
