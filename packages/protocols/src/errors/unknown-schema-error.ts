import { TaskContextError } from "@task-context/core";

/**
 * `validate()` was asked for a schema that is not published. The message lists the names that
 * are, so the caller can fix the typo or the version.
 *
 * @example
 * ```ts
 * try {
 *   validate("context-block.v9", value);
 * } catch (error) {
 *   if (UnknownSchemaError.isInstance(error)) console.error(error.knownSchemas);
 * }
 * ```
 */
export class UnknownSchemaError extends TaskContextError {
  /** The name or `$id` that was asked for. */
  readonly schema: string;
  /** The published schema names. */
  readonly knownSchemas: readonly string[];

  constructor(schema: string, knownSchemas: readonly string[]) {
    super(
      "UNKNOWN_SCHEMA",
      `Unknown schema ${JSON.stringify(schema)}. Use a published schema name or its $id (urn:task-context:schema:{name}); the names are: ${knownSchemas.join(", ")}.`,
    );
    this.name = "UnknownSchemaError";
    this.schema = schema;
    this.knownSchemas = knownSchemas;
  }

  static override isInstance(error: unknown): error is UnknownSchemaError {
    return TaskContextError.hasCode(error, "UNKNOWN_SCHEMA");
  }
}
