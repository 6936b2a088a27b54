// Names of the API description (README: REST API): where it is served, its tags in the order the
// reference page shows them, and the security schemes its calls use.

/** The OpenAPI document, public (no credentials needed; an API key reaches it too). */
export const OPENAPI_DOCUMENT_PATH = "/api/openapi.json";

export const OPENAPI_VERSION = "3.1.1";

/** The API's own version, bumped when a call changes in a way a client would notice. */
export const API_VERSION = "1.0.0";

export const OPENAPI_TAG = {
  EMAIL_CALLBACKS: "email-callbacks",
  PROCESSINGS: "processings",
  DOMAINS: "domains",
  API_KEYS: "api-keys",
  ACCOUNT: "account",
} as const;

export type OpenApiTag = (typeof OPENAPI_TAG)[keyof typeof OPENAPI_TAG];

export const SECURITY_SCHEME = {
  /** `Authorization: Bearer hm_…`, a personal API key. */
  API_KEY: "apiKey",
  /** The session cookie set by signing in to the app. */
  SESSION: "sessionCookie",
} as const;

/** Who may make a call: a session or an API key, or a session only (account and key management). */
export type OperationAccess = "session-or-key" | "session";
