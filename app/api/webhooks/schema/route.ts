// GET /api/webhooks/schema: the JSON Schema of the webhook body (docs/webhook-payload.schema.json),
// public so that receivers can fetch it without an account.
import schema from "@/docs/webhook-payload.schema.json";

export const dynamic = "force-static";

export function GET() {
  return new Response(`${JSON.stringify(schema, null, 2)}\n`, {
    headers: { "Content-Type": "application/schema+json; charset=utf-8" },
  });
}
