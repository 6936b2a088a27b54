// GET /api/openapi.json: the OpenAPI 3.1 document of the REST API (README: REST API), public: no
// credentials needed, and a request carrying an API key is answered the same.
import { getConfig } from "@/modules/config/config";
import { getOpenApiDocument } from "@/modules/openapi/openapi.document";
import { withErrors } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const GET = withErrors(async () =>
  Response.json(getOpenApiDocument({ serverUrl: getConfig().baseUrl }), {
    headers: { "Cache-Control": "public, max-age=300" },
  }),
);
