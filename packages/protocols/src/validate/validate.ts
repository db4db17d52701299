import { getValidator } from "#validators";
import { UnknownSchemaError } from "../errors/unknown-schema-error.ts";
import { type SchemaName, schemaIdOf, schemaNames } from "../schemas/registry.ts";
import type { ValidationResult } from "./validation-result.ts";

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
 */
export function resolveSchemaName(schema: SchemaName | (string & {})): SchemaName {
  const name = namesByReference.get(schema);
  if (name === undefined) throw new UnknownSchemaError({ schema, knownSchemas: schemaNames });
  return name;
}

/**
 * Checks a value against a published JSON Schema, by name or `$id`. Every issue comes back with
 * the JSON Pointer of the offending value and a readable message. The answer is the same on
 * every runtime: ajv compiles the schema on Node, Bun and Deno, and a validator precompiled at
 * build time runs where code generation is forbidden (Cloudflare Workers, browsers).
 *
 * @throws {UnknownSchemaError} when no published schema has that name or `$id`.
 *
 * @example
 * ```ts
 * validate("context-block.v1", {
 *   version: 1,
 *   project: { path: "/work/app", stack: "nextjs-prisma" },
 *   conventions: {},
 * });
 * // { valid: false, issues: [{ path: "/conventions", message: "must have required property 'summary'" }] }
 *
 * validate("urn:task-context:schema:work-item.v1", workItem).valid; // true
 * ```
 */
export function validate(schema: SchemaName | (string & {}), value: unknown): ValidationResult {
  return getValidator(resolveSchemaName(schema))(value);
}
