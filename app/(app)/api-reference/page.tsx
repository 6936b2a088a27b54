import { pageTitle } from "@/modules/i18n/page-title";
import { buildReferenceSections } from "@/modules/openapi/api-reference.models";
import { ApiReference } from "@/modules/openapi/components/api-reference";
import { getServices } from "@/modules/server/services";

export const generateMetadata = pageTitle("apiReference");

export default function ApiReferencePage() {
  return <ApiReference sections={buildReferenceSections(getServices().openApiDocument())} />;
}
