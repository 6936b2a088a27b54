// The API reference page's view of the OpenAPI document: its calls grouped by tag, each with its
// parameters, body and answers as flat lists of fields (refs resolved), and its error codes by status.
import { OPENAPI_TAG, type OpenApiTag, type OperationAccess, SECURITY_SCHEME } from "./openapi.constants";
import type { JsonSchema } from "./openapi.json-schema";
import { HTTP_METHODS, type HttpMethod } from "./openapi.operations";

type MediaTypeObject = { schema?: JsonSchema; "x-events"?: Record<string, { schema: JsonSchema }> };
type OperationObject = {
  tags: string[];
  operationId: string;
  summary: string;
  description?: string;
  security: Record<string, unknown[]>[];
  parameters?: { name: string; in: string; required: boolean; description?: string; schema: JsonSchema }[];
  requestBody?: { required: boolean; content: Record<string, MediaTypeObject> };
  responses: Record<string, { description: string; content?: Record<string, MediaTypeObject> }>;
};

/** The parts of an OpenAPI document the page reads. */
export type ReferenceDocument = {
  paths: Record<string, Partial<Record<HttpMethod, OperationObject>>>;
  components: { schemas: Record<string, JsonSchema> };
};

export type ReferenceField = { name: string; type: string; required: boolean; description?: string };
export type ReferenceContent = { mediaType: string; fields: ReferenceField[]; schema: JsonSchema; description?: string };

export type ReferenceOperation = {
  id: string;
  method: HttpMethod;
  path: string;
  summary: string;
  description?: string;
  access: OperationAccess;
  parameters: (ReferenceField & { in: string })[];
  requestBody?: { required: boolean; contents: ReferenceContent[] };
  success: { status: string; description: string; contents: ReferenceContent[] };
  events: { name: string; fields: ReferenceField[] }[];
  errors: { status: string; codes: string[] }[];
};

export type ReferenceSection = { tag: OpenApiTag; operations: ReferenceOperation[] };

const MAX_FIELD_DEPTH = 4;

/** The schema with every `$ref` replaced by the component it names (the API's schemas are not recursive). */
export function resolveRefs(schema: unknown, components: Record<string, JsonSchema>, depth = 0): JsonSchema {
  if (depth > 20) throw new Error("The schema refers to itself too deeply");
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, components, depth + 1)) as unknown as JsonSchema;
  if (typeof schema !== "object" || schema === null) return schema as JsonSchema;
  const { $ref, ...rest } = schema as JsonSchema;
  const target = typeof $ref === "string" ? components[$ref.replace("#/components/schemas/", "")] : undefined;
  const merged = target ? { ...target, ...rest } : rest;
  return Object.fromEntries(Object.entries(merged).map(([key, value]) => [key, resolveRefs(value, components, depth + 1)]));
}

/** A short type for a reader: `string (date-time)`, `"inline" | "url"`, `integer | null`, `string[]`. */
export function describeType(schema: JsonSchema): string {
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return alternatives.map(describeType).join(" | ");
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === "string" ? [schema.type] : [];
  if (types.length === 0) return "any";
  return types
    .map((type) => {
      if (type === "array") return `${describeType((schema.items as JsonSchema | undefined) ?? {})}[]`;
      const detail = schema.format ?? schema.contentMediaType;
      return type === "string" && typeof detail === "string" ? `string (${detail})` : type;
    })
    .join(" | ");
}

function objectOf(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties) return schema;
  const alternatives = (schema.anyOf ?? []) as JsonSchema[];
  return alternatives.find((alternative) => alternative.properties);
}

/** The fields of an object schema, nested ones as `parent.child` and array items as `list[].child`. */
export function listFields(schema: JsonSchema, prefix = "", depth = 0): ReferenceField[] {
  const object = objectOf(schema);
  if (!object || depth >= MAX_FIELD_DEPTH) return [];
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries(object.properties as Record<string, JsonSchema>).flatMap(([key, property]) => {
    const name = `${prefix}${key}`;
    const field: ReferenceField = {
      name,
      type: describeType(property),
      required: required.has(key),
      ...(typeof property.description === "string" ? { description: property.description } : {}),
    };
    const items = property.type === "array" ? (property.items as JsonSchema | undefined) : undefined;
    const nested = items ? listFields(items, `${name}[].`, depth + 1) : listFields(property, `${name}.`, depth + 1);
    return [field, ...nested];
  });
}

function toContents(content: Record<string, MediaTypeObject> | undefined, components: Record<string, JsonSchema>) {
  return Object.entries(content ?? {}).map(([mediaType, { schema = {} }]): ReferenceContent => {
    const resolved = resolveRefs(schema, components);
    return {
      mediaType,
      fields: listFields(resolved),
      schema: resolved,
      ...(typeof resolved.description === "string" ? { description: resolved.description } : {}),
    };
  });
}

function toOperation(
  path: string,
  method: HttpMethod,
  operation: OperationObject,
  document: ReferenceDocument,
): ReferenceOperation {
  const { schemas } = document.components;
  const statuses = Object.keys(operation.responses).sort();
  const successStatus = statuses.find((status) => Number(status) < 400) ?? "200";
  const success = operation.responses[successStatus];
  const events = Object.values(success?.content ?? {}).flatMap((media) =>
    Object.entries(media["x-events"] ?? {}).map(([name, { schema }]) => ({
      name,
      fields: listFields(resolveRefs(schema, schemas)),
    })),
  );
  return {
    id: operation.operationId,
    method,
    path,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    access: operation.security.some((scheme) => SECURITY_SCHEME.API_KEY in scheme) ? "session-or-key" : "session",
    parameters: (operation.parameters ?? []).map((parameter) => ({
      name: parameter.name,
      in: parameter.in,
      type: describeType(resolveRefs(parameter.schema, schemas)),
      required: parameter.required,
      ...(parameter.description ? { description: parameter.description } : {}),
    })),
    ...(operation.requestBody
      ? {
          requestBody: { required: operation.requestBody.required, contents: toContents(operation.requestBody.content, schemas) },
        }
      : {}),
    success: { status: successStatus, description: success?.description ?? "", contents: toContents(success?.content, schemas) },
    events,
    errors: statuses
      .filter((status) => Number(status) >= 400)
      .map((status) => {
        const schema = resolveRefs(operation.responses[status]?.content?.["application/json"]?.schema ?? {}, schemas);
        const code = listFields(schema).find((field) => field.name === "error.code");
        return { status, codes: code ? code.type.split(" | ").map((value) => JSON.parse(value) as string) : [] };
      }),
  };
}

/** The document's calls by tag, in the tags' order, each tag's calls in the document's order. */
export function buildReferenceSections(document: ReferenceDocument): ReferenceSection[] {
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ tag: operation.tags[0], operation: toOperation(path, method, operation, document) }] : [];
    }),
  );
  return Object.values(OPENAPI_TAG).map((tag) => ({
    tag,
    operations: operations.filter((entry) => entry.tag === tag).map((entry) => entry.operation),
  }));
}
