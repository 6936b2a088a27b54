import { WebhookDocs } from "@/modules/delivery/components/webhook-docs";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("webhooks");

export default function WebhooksPage() {
  return <WebhookDocs />;
}
