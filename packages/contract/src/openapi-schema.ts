// A zod schema as an OpenAPI 3.1 schema: zod's JSON Schema (draft 2020-12, as a request takes it),
// each schema with a registered `id` moved to the document's components and referred to there.
import * as z from "zod";

type Json = Record<string, unknown>;

/** Keywords whose value is a schema, or schemas: their references are rewritten too. */
const schemaKeywords = [
  "properties",
  "additionalProperties",
  "items",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "patternProperties",
  "propertyNames",
  "contains",
];

/** Keywords whose value maps names to schemas. */
const schemaMaps = new Set(["properties", "$defs", "patternProperties"]);

/** `schema` with its `$defs` moved into `components` and local `$ref`s pointing there. */
function toComponents(schema: Json, components: Record<string, object>): Json {
  const converted: Json = { ...schema };
  delete converted.$schema;
  for (const keyword of schemaKeywords) {
    const value = converted[keyword];
    if (typeof value !== "object" || value === null) continue;
    if (schemaMaps.has(keyword)) {
      converted[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, entry]) => [
          name,
          toComponents(entry as Json, components),
        ]),
      );
    } else if (Array.isArray(value)) {
      converted[keyword] = value.map((entry) => toComponents(entry as Json, components));
    } else {
      converted[keyword] = toComponents(value as Json, components);
    }
  }
  const defs = converted.$defs as Record<string, object> | undefined;
  if (defs !== undefined) {
    // A component named before keeps its first form (the same schema, met again).
    for (const [name, definition] of Object.entries(defs)) components[name] ??= definition;
    delete converted.$defs;
  }
  if (typeof converted.$ref === "string") {
    const { $ref, ...rest } = converted;
    return { ...rest, $ref: `#/components/schemas/${$ref.split("/").at(-1)}` };
  }
  return converted;
}

/**
 * `schema` as the OpenAPI document shows it, as a request takes it (zod's input form: a default
 * makes a field optional); schemas registered with an `id` (`.meta({ id })`) are added to
 * `components` and referred to.
 */
export function openApiSchema(schema: z.core.$ZodType, components: Record<string, object>): Json {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
  return toComponents(json, components);
}
