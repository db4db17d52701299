import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

/** One validator for every check of a run: it caches each schema it compiles. */
const ajv = new Ajv2020({ strict: false, allErrors: false });

/**
 * A JSON Schema (draft 2020-12) compiled for a `json_schema` check; throws with Ajv's message
 * when `schema` is not one.
 */
export function compileJsonSchema(schema: Record<string, unknown>): ValidateFunction {
  return ajv.compile(schema);
}

/** Whether `value` holds to `schema`: passed, or the first problem as `path: message`. */
export function checkJsonSchema(
  schema: Record<string, unknown>,
  value: unknown,
): { pass: true } | { pass: false; note: string } {
  const validate = compileJsonSchema(schema);
  if (validate(value)) return { pass: true };
  const [error] = validate.errors ?? [];
  const where = error === undefined || error.instancePath === "" ? "" : `${error.instancePath}: `;
  return { pass: false, note: `${where}${error?.message ?? "invalid"}` };
}
