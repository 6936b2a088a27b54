// One API call as the paths files declare it, and how it becomes an OpenAPI operation: parameters
// from the path and the query schema, the body and answers from zod schemas, and the error answers
// grouped by HTTP status with the codes each status can carry (from the one table of codes).
import { z } from "zod";
import { PATH_SEGMENT_PATTERN } from "@/modules/shared/api/route-handler";
import { ERROR_HTTP_STATUSES, type ErrorCode } from "@/modules/shared/errors/error-codes";
import { type OpenApiTag, type OperationAccess, SECURITY_SCHEME } from "./openapi.constants";
import type { JsonSchema, SchemaConverter } from "./openapi.json-schema";
import { errorResponseSchema } from "./openapi.responses";

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * A body or answer: a zod schema (as JSON), or bytes / text of a media type described in words; a
 * stream of server-sent events names the data of each event (as the media type's `x-events`).
 */
export type ContentSpec =
  | z.core.$ZodType
  | { kind: "binary" | "text" | "any"; description?: string; events?: Record<string, z.core.$ZodType> };

export type HeaderSpec = { name: string; description: string; schema?: z.core.$ZodType };

export type OperationSpec = {
  method: HttpMethod;
  /** The OpenAPI path: /api/… with {name} for each segment the route's folder names [name]. */
  path: string;
  tag: OpenApiTag;
  operationId: string;
  summary: string;
  description?: string;
  access: OperationAccess;
  query?: z.ZodObject;
  /** Words for the query parameters, by name (the schema gives their type and bounds). */
  queryDescriptions?: Record<string, string>;
  requestHeaders?: HeaderSpec[];
  requestBody?: { description?: string; required?: boolean; content: Record<string, ContentSpec> };
  success: { status: 200 | 201 | 202 | 204; description: string; content?: Record<string, ContentSpec>; headers?: HeaderSpec[] };
  /** The codes the call's own rules can answer; those every call of its kind can answer are added. */
  errors: ErrorCode[];
};

const idSchema = z.string().regex(PATH_SEGMENT_PATTERN);

/** Every path parameter of the API; a malformed one answers 404 resource.not_found. */
const PATH_PARAMETERS: Record<string, { description: string; schema: z.core.$ZodType }> = {
  emailCallbackId: { description: "The address's id (`ecb_…`).", schema: idSchema },
  processingId: { description: "The received mail's id (`ep_…`).", schema: idSchema },
  apiKeyId: { description: "The API key's id (`ak_…`).", schema: idSchema },
  domainId: { description: "The domain's id (`dom_…`).", schema: idSchema },
  endpointId: { description: "The endpoint's id (`ept_…`).", schema: idSchema },
  index: {
    description: "The attachment's place in the webhook body's `attachments` list, from 0.",
    schema: z.string().regex(/^(0|[1-9]\d{0,3})$/),
  },
};

const WRITE_METHODS: ReadonlySet<HttpMethod> = new Set(["post", "put", "patch", "delete"]);

/** The names in a path's braces, in order. */
export function listPathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? "");
}

/** The codes a call can answer: its own, and those its access, path, query, body and method imply. */
export function listErrorCodes(spec: OperationSpec): ErrorCode[] {
  const implied: ErrorCode[] = ["auth.unauthorized", "internal.error"];
  if (spec.access === "session") implied.push("api_keys.session_required");
  if (WRITE_METHODS.has(spec.method)) implied.push("request.cross_site", "request.unsupported_media_type");
  if (listPathParameterNames(spec.path).length > 0) implied.push("resource.not_found");
  if (spec.query) implied.push("request.invalid_query");
  // A JSON body given as a zod schema is parsed with it (parseJsonBody); one described in words is not read.
  if (spec.requestBody?.content["application/json"] instanceof z.core.$ZodType) implied.push("request.invalid_body");
  return [...new Set([...spec.errors, ...implied])];
}

function toContent(content: Record<string, ContentSpec>, io: "input" | "output", converter: SchemaConverter) {
  return Object.fromEntries(
    Object.entries(content).map(([mediaType, item]) => {
      if (item instanceof z.core.$ZodType) return [mediaType, { schema: converter.convert(item, io) }];
      const schemas: Record<typeof item.kind, JsonSchema> = {
        binary: mediaType.includes("*") ? { type: "string" } : { type: "string", contentMediaType: mediaType },
        text: { type: "string" },
        any: {},
      };
      const schema = schemas[item.kind];
      const events = item.events
        ? {
            "x-events": Object.fromEntries(
              Object.entries(item.events).map(([name, data]) => [name, { schema: converter.convert(data, io) }]),
            ),
          }
        : {};
      return [mediaType, { schema: item.description ? { ...schema, description: item.description } : schema, ...events }];
    }),
  );
}

function toHeaders(headers: HeaderSpec[], converter: SchemaConverter) {
  return Object.fromEntries(
    headers.map(({ name, description, schema }) => [
      name,
      { description, schema: schema ? converter.convert(schema, "output") : { type: "string" } },
    ]),
  );
}

function toParameters(spec: OperationSpec, converter: SchemaConverter) {
  const pathParameters = listPathParameterNames(spec.path).map((name) => {
    const parameter = PATH_PARAMETERS[name];
    if (!parameter) throw new Error(`The path parameter ${name} of ${spec.path} is not described`);
    return {
      name,
      in: "path",
      required: true,
      description: parameter.description,
      schema: converter.convert(parameter.schema, "input"),
    };
  });
  const query = spec.query ? converter.convert(spec.query, "input") : { properties: {} };
  const required = new Set((query.required as string[] | undefined) ?? []);
  const queryParameters = Object.entries((query.properties ?? {}) as Record<string, JsonSchema>).map(
    ([name, { description, ...schema }]) => {
      const words = spec.queryDescriptions?.[name] ?? description;
      return {
        name,
        in: "query",
        required: required.has(name),
        ...(typeof words === "string" ? { description: words } : {}),
        schema,
      };
    },
  );
  const headerParameters = (spec.requestHeaders ?? []).map(({ name, description, schema }) => ({
    name,
    in: "header",
    required: false,
    description,
    schema: schema ? converter.convert(schema, "input") : { type: "string" },
  }));
  return [...pathParameters, ...queryParameters, ...headerParameters];
}

/** One answer per error status, its `error.code` limited to the codes that status carries here. */
function toErrorResponses(codes: ErrorCode[], converter: SchemaConverter) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_HTTP_STATUSES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const statuses = [...byStatus.keys()].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const statusCodes = (byStatus.get(status) ?? []).sort();
      const schema = errorResponseSchema.extend({
        error: errorResponseSchema.shape.error.extend({ code: z.enum(statusCodes as [ErrorCode, ...ErrorCode[]]) }),
      });
      const retryAfter =
        status === 429 ? { headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } } } : {};
      return [
        String(status),
        {
          description: statusCodes.map((code) => `\`${code}\``).join(", "),
          ...retryAfter,
          content: { "application/json": { schema: converter.convert(schema, "output") } },
        },
      ];
    }),
  );
}

function toSecurity(access: OperationAccess) {
  const session = { [SECURITY_SCHEME.SESSION]: [] };
  return access === "session" ? [session] : [{ [SECURITY_SCHEME.API_KEY]: [] }, session];
}

export function buildOperation(spec: OperationSpec, converter: SchemaConverter) {
  const parameters = toParameters(spec, converter);
  const { success } = spec;
  return {
    tags: [spec.tag],
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security: toSecurity(spec.access),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.requestBody
      ? {
          requestBody: {
            ...(spec.requestBody.description ? { description: spec.requestBody.description } : {}),
            required: spec.requestBody.required ?? true,
            content: toContent(spec.requestBody.content, "input", converter),
          },
        }
      : {}),
    responses: {
      [String(success.status)]: {
        description: success.description,
        ...(success.headers ? { headers: toHeaders(success.headers, converter) } : {}),
        ...(success.content ? { content: toContent(success.content, "output", converter) } : {}),
      },
      ...toErrorResponses(listErrorCodes(spec), converter),
    },
  };
}
