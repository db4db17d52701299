// Pure functions that turn the zod schemas of src/schemas/ into the published JSON Schemas.
// `generate-schemas.ts` writes their output; the drift test (src/validate/schema-drift.test.ts)
// compares it with the committed files.
import * as z from "zod/mini";
import {
  type SchemaName,
  schemaIdOf,
  schemaNames,
  schemaRegistry,
} from "../src/schemas/registry.ts";

/** A JSON Schema document as written to `schemas/{name}.schema.json`. */
export type JsonSchemaDocument = {
  $schema: string;
  $id: string;
  title: string;
  [keyword: string]: unknown;
};

/** The folder of the published JSON Schemas, relative to the package root. */
export const schemasDirectory = "schemas";

/** The command that regenerates every generated file, from the package root. */
export const generateCommand = "node scripts/generate-schemas.ts";

/** `schemas/{name}.schema.json`, relative to the package root. */
export function schemaFilePath(name: SchemaName): string {
  return `${schemasDirectory}/${name}.schema.json`;
}

/**
 * The published JSON Schema (draft 2020-12) of one registry entry: zod's output with `$schema`,
 * `$id` and `title` first.
 */
export function jsonSchemaOf(name: SchemaName): JsonSchemaDocument {
  const { $schema, title, ...rest } = z.toJSONSchema(schemaRegistry[name], {
    target: "draft-2020-12",
  }) as Record<string, unknown>;
  if (typeof title !== "string" || title.length === 0) {
    throw new Error(
      `The zod schema of "${name}" has no title: add .check(z.meta({ title: "…" })) to it in src/schemas/.`,
    );
  }
  return {
    $schema: typeof $schema === "string" ? $schema : "https://json-schema.org/draft/2020-12/schema",
    $id: schemaIdOf(name),
    title,
    ...rest,
  };
}

/** The text of a JSON file: 2-space indentation and a trailing newline. */
export function renderJsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Every generated file: path relative to the package root, and content. */
export function generatedFiles(): Array<{ path: string; content: string }> {
  return schemaNames.map((name) => ({
    path: schemaFilePath(name),
    content: renderJsonFile(jsonSchemaOf(name)),
  }));
}
