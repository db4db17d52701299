import { requireString } from "@task-context/core/internal";
import type * as z from "zod/mini";
import { UnknownSchemaError } from "../errors/unknown-schema-error.ts";
import { type SchemaName, schemaIdOf, schemaNames, schemaRegistry } from "../schemas/registry.ts";
import { checkValue, type ValidationResult } from "./issues.ts";

const namesByReference = new Map<string, SchemaName>(
  schemaNames.flatMap((name) => [
    [name, name],
    [schemaIdOf(name), name],
  ]),
);

/**
 * The published schema a name (`"context-block.v1"`) or an `$id`
 * (`"urn:task-context:schema:context-block.v1"`) refers to.
 *
 * @throws {UnknownSchemaError} when no published schema has that name or `$id`.
 * @throws {ArgumentError} when `schema` is not a string.
 *
 * @example
 * ```ts source="../../examples/resolve-schema-name.ts"
 * import { resolveSchemaName } from "@task-context/protocols";
 *
 * console.log(resolveSchemaName("urn:task-context:schema:work-item.v1")); // "work-item.v1"
 * ```
 */
export function resolveSchemaName(schema: SchemaName | (string & {})): SchemaName {
  requireString("schema", schema);
  const name = namesByReference.get(schema);
  if (name === undefined) throw new UnknownSchemaError({ schema, knownSchemas: schemaNames });
  return name;
}

/**
 * Checks a value against a published schema, by name or `$id`, by running the package's zod
 * schema itself: the same code on Node, Bun, Deno, Cloudflare Workers and browsers, with no code
 * generation at run time. Every issue comes back with the JSON Pointer of the field and a
 * sentence that says what to write instead. The published JSON Schemas are generated from the
 * same zod schemas and give the same verdicts (see
 * https://github.com/task-context/task-context/blob/main/docs/schemas.md).
 *
 * @throws {UnknownSchemaError} when no published schema has that name or `$id`.
 *
 * @example
 * ```ts source="../../examples/validate.ts"
 * import { validate } from "@task-context/protocols";
 *
 * const result = validate("context-block.v1", {
 *   version: 1,
 *   project: { path: "/srv/app", stack: "remix" },
 *   conventions: {},
 * });
 * console.log(result);
 * // { valid: false, issues: [{ path: "/conventions/summary",
 * //   message: "conventions.summary is required: a non-empty string, a 2-5 sentence summary of the key conventions (target 50-100 tokens, at most 200)." }] }
 * ```
 */
export function validate(schema: SchemaName | (string & {}), value: unknown): ValidationResult {
  const target: z.core.$ZodType = schemaRegistry[resolveSchemaName(schema)];
  const { valid, issues } = checkValue(target, value);
  return { valid, issues };
}
