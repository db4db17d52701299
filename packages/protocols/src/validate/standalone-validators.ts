import { UnknownSchemaError } from "../errors/unknown-schema-error.ts";
import type { SchemaName } from "../schemas/registry.ts";
import { schemaValidatorFrom } from "./ajv-issues.ts";
import { validators } from "./standalone-validators.generated.js";
import type { SchemaValidator } from "./validation-result.ts";

const cache = new Map<SchemaName, SchemaValidator>();

/**
 * The validator of a published schema, precompiled at build time by ajv's standalone mode. It
 * compiles nothing at run time (no `new Function`, no `eval`), so it works on Cloudflare
 * Workers and in browsers. `validate()` picks it through the `#validators` import on every
 * runtime but Node, Bun and Deno.
 *
 * @example
 * ```ts
 * const check = getValidator("context-block.v1");
 * check({ version: 1 }); // { valid: false, issues: [{ path: "", message: "must have required property 'project'" }, …] }
 * ```
 */
export function getValidator(name: SchemaName): SchemaValidator {
  const cached = cache.get(name);
  if (cached) return cached;
  if (!Object.hasOwn(validators, name))
    throw new UnknownSchemaError({ schema: name, knownSchemas: Object.keys(validators) });
  const validateFunction = validators[name];
  const validator = schemaValidatorFrom(validateFunction);
  cache.set(name, validator);
  return validator;
}
