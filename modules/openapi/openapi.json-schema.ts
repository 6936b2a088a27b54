// zod → JSON Schema 2020-12 (the dialect of OpenAPI 3.1), with zod's own z.toJSONSchema. Schemas
// given an `id` (`.meta({ id })`) become components, referenced as #/components/schemas/<id>.
import { z } from "zod";

export type JsonSchema = { [key: string]: unknown };

export type SchemaConverter = {
  /** A request's schema (io "input": defaults optional, coerced values as sent) or a response's (io "output"). */
  convert: (schema: z.core.$ZodType, io: "input" | "output") => JsonSchema;
  /** The schemas with an id met so far, by id. */
  components: Record<string, JsonSchema>;
};

const DEFS_PREFIX = "#/$defs/";
const COMPONENTS_PREFIX = "#/components/schemas/";

/** Points refs at components instead of the generated document's own $defs. */
function pointRefsAtComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pointRefsAtComponents);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) =>
      key === "$ref" && typeof item === "string" && item.startsWith(DEFS_PREFIX)
        ? [key, `${COMPONENTS_PREFIX}${item.slice(DEFS_PREFIX.length)}`]
        : [key, pointRefsAtComponents(item)],
    ),
  );
}

type GeneratedSchema = { [key: string]: unknown };

/**
 * Leaves out what zod adds for its own checks and a reader does not need: the safe-integer bounds of
 * every `.int()`, and the pattern behind `format: date-time`.
 */
function dropImplicitBounds(jsonSchema: GeneratedSchema) {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.format === "date-time") delete jsonSchema.pattern;
}

/**
 * Answers stay open to new fields (clients should ignore what they do not know: fields are only
 * ever added), so an output object is not closed with `additionalProperties: false`.
 */
function keepObjectsOpen(jsonSchema: GeneratedSchema) {
  if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
}

export function createSchemaConverter(): SchemaConverter {
  const components: Record<string, JsonSchema> = {};
  const convert = (schema: z.core.$ZodType, io: "input" | "output"): JsonSchema => {
    const generated = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io,
      unrepresentable: "any",
      override: ({ jsonSchema }) => {
        dropImplicitBounds(jsonSchema as GeneratedSchema);
        if (io === "output") keepObjectsOpen(jsonSchema as GeneratedSchema);
      },
    }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = generated;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      const component = pointRefsAtComponents(definition) as JsonSchema;
      const known = components[id];
      if (known && JSON.stringify(known) !== JSON.stringify(component)) {
        throw new Error(`Two different schemas are named ${id} in the OpenAPI document`);
      }
      components[id] = component;
    }
    return pointRefsAtComponents(rest) as JsonSchema;
  };
  return { convert, components };
}
