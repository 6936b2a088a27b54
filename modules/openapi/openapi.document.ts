// The OpenAPI 3.1 document of the REST API (README: REST API), generated from the zod schemas the
// routes parse with and the schemas of their answers; served at /api/openapi.json and shown on the
// in-app API reference page.
import { AUTH_COOKIE_PREFIX } from "@/modules/auth/auth.constants";
import { API_VERSION, OPENAPI_TAG, OPENAPI_VERSION, type OpenApiTag, SECURITY_SCHEME } from "./openapi.constants";
import { createSchemaConverter } from "./openapi.json-schema";
import { buildOperation, type OperationSpec } from "./openapi.operations";
import { API_KEY_OPERATIONS } from "./openapi.paths.api-keys";
import { DOMAIN_OPERATIONS } from "./openapi.paths.domains";
import { EMAIL_CALLBACK_OPERATIONS } from "./openapi.paths.email-callbacks";
import { ENDPOINT_OPERATIONS } from "./openapi.paths.endpoints";
import { PROCESSING_OPERATIONS } from "./openapi.paths.processings";
import { USER_OPERATIONS } from "./openapi.paths.users";

/** Every described call, in the order the reference shows them. */
export const OPERATIONS: readonly OperationSpec[] = [
  ...EMAIL_CALLBACK_OPERATIONS,
  ...ENDPOINT_OPERATIONS,
  ...PROCESSING_OPERATIONS,
  ...DOMAIN_OPERATIONS,
  ...API_KEY_OPERATIONS,
  ...USER_OPERATIONS,
];

const TAGS: { name: OpenApiTag; description: string }[] = [
  { name: OPENAPI_TAG.EMAIL_CALLBACKS, description: "Your receive-only addresses and where their mail is sent." },
  { name: OPENAPI_TAG.PROCESSINGS, description: "Each address's inbox: every mail it received and its delivery." },
  { name: OPENAPI_TAG.DOMAINS, description: "Your own domains, proven by their DNS records." },
  { name: OPENAPI_TAG.API_KEYS, description: "Personal keys for programs; managed with a session only." },
  { name: OPENAPI_TAG.ACCOUNT, description: "Your account's settings; read and changed with a session only." },
];

const DESCRIPTION = [
  "Hookmail turns mail into signed webhooks. Everything the dashboard does is one of these calls.",
  "",
  "Authenticate with an API key (`Authorization: Bearer hm_…`, created under API keys) on every " +
    "`/api/email-callbacks*` and `/api/domains*` call, or with the app's session cookie. A write made with the session cookie must come " +
    "from the app's own origin and be `application/json`; calls made with a key are exempt.",
  "",
  'Errors are `{"error": {"code", "message", "fields"?}}`; each answer below lists the codes it can carry. ' +
    "Another user's record answers not-found.",
].join("\n");

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

export function buildOpenApiDocument({ serverUrl }: { serverUrl: string }) {
  const converter = createSchemaConverter();
  const paths: Record<string, Record<string, ReturnType<typeof buildOperation>>> = {};
  for (const spec of OPERATIONS) {
    paths[spec.path] ??= {};
    const item = paths[spec.path]!;
    if (item[spec.method]) throw new Error(`${spec.method.toUpperCase()} ${spec.path} is described twice`);
    item[spec.method] = buildOperation(spec, converter);
  }
  return {
    openapi: OPENAPI_VERSION,
    info: { title: "Hookmail API", version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: serverUrl }],
    tags: TAGS,
    paths,
    components: {
      schemas: converter.components,
      securitySchemes: {
        [SECURITY_SCHEME.API_KEY]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "hm_ and 40 letters and digits",
          description:
            "A personal API key, created on the API keys page. It reaches the `/api/email-callbacks*` and `/api/domains*` calls.",
        },
        [SECURITY_SCHEME.SESSION]: {
          type: "apiKey",
          in: "cookie",
          name: `${AUTH_COOKIE_PREFIX}.session_token`,
          description: "The session cookie set by signing in to the app (`__Secure-` prefixed over HTTPS).",
        },
      },
    },
  };
}
