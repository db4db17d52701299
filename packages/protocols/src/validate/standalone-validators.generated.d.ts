// Types of standalone-validators.generated.js (written by `node scripts/generate-schemas.ts`).
import type { SchemaName } from "../schemas/registry.ts";
import type { AjvErrorObject } from "./ajv-issues.ts";

/** An ajv standalone validate function: returns validity and leaves ajv's errors on `errors`. */
export interface StandaloneValidateFunction {
  (data: unknown): boolean;
  errors?: AjvErrorObject[] | null;
}

/** Every validator, by schema name. */
export declare const validators: Readonly<Record<SchemaName, StandaloneValidateFunction>>;
