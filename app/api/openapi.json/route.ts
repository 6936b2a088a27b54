// GET /api/openapi.json: the OpenAPI 3.1 document of the REST API (README: REST API), public: no
// credentials needed, and a request carrying an API key is answered the same.
import { withErrors } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

export const GET = withErrors(async ({ services }) =>
  Response.json(services.openApiDocument(), {
    headers: { "Cache-Control": "public, max-age=300" },
  }),
);
