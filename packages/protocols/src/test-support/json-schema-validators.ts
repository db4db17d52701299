// Test helper: the published JSON Schemas, loaded into two independent JSON Schema validators —
// ajv (Ajv2020) and @hyperjump/json-schema — to compare their verdicts with validate()'s.
import { readFileSync } from "node:fs";
import {
  validate as hyperjumpValidate,
  registerSchema,
  type SchemaObject,
  type Validator,
} from "@hyperjump/json-schema/draft-2020-12";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type SchemaName, schemaIdOf, schemaNames } from "../schemas/registry.ts";
import type { JsonSchema } from "./json-schema-arbitrary.ts";

/** The committed `schemas/{name}.schema.json`, as shipped. */
export function publishedSchema(name: SchemaName): JsonSchema & SchemaObject {
  const url = new URL(`../../schemas/${name}.schema.json`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as JsonSchema & SchemaObject;
}

// ajv with its defaults (first error only) and the strictness zod's output needs. `date-time` is
// declared known and not asserted (an annotation, as draft 2020-12 has it); the `pattern` beside
// it is zod's own check and decides.
const ajv = new Ajv2020({
  strict: true,
  allowUnionTypes: true,
  strictTuples: false,
  formats: { "date-time": true },
});
for (const name of schemaNames) {
  ajv.addSchema(publishedSchema(name));
  // hyperjump also checks each schema against the 2020-12 meta-schema.
  registerSchema(publishedSchema(name), schemaIdOf(name));
}

/** ajv's verdict on `value` for the published schema `name`. */
export function ajvVerdict(name: SchemaName, value: unknown): boolean {
  const check = ajv.getSchema(schemaIdOf(name));
  if (check === undefined) throw new Error(`ajv does not know ${name}`);
  return check(value) as boolean;
}

/** @hyperjump/json-schema's verdict on `value` for the published schema `name`. */
export async function hyperjumpVerdict(name: SchemaName, value: unknown): Promise<boolean> {
  const output = await hyperjumpValidate(schemaIdOf(name), value as Parameters<Validator>[0]);
  return output.valid;
}
