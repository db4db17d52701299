import { TaskContextError } from "@task-context/core";

const marker = "task-context.error.UnknownSchemaError";
const symbol = Symbol.for(marker);

/**
 * `validate()` was asked for a schema that is not published. The message lists the names that
 * are, so the caller can fix the typo or the version.
 *
 * @example
 * ```ts source="../../examples/unknown-schema.ts"
 * import { UnknownSchemaError, validate } from "@task-context/protocols";
 *
 * try {
 *   validate("context-block.v9", {});
 * } catch (error) {
 *   if (!UnknownSchemaError.isInstance(error)) throw error;
 *   console.error(error.knownSchemas); // ["context-block.v1", "subagent-context.v1", …, "collaboration-event.v1"]
 * }
 * ```
 */
export class UnknownSchemaError extends TaskContextError<"UNKNOWN_SCHEMA"> {
  protected readonly [symbol] = true;
  override name = "UnknownSchemaError";
  /** The name or `$id` that was asked for. */
  readonly schema: string;
  /** The published schema names. */
  readonly knownSchemas: readonly string[];

  constructor({ schema, knownSchemas }: { schema: string; knownSchemas: readonly string[] }) {
    super({
      code: "UNKNOWN_SCHEMA",
      message: `Unknown schema ${JSON.stringify(schema)}. Use a published schema name or its $id (urn:task-context:schema:{name}); the names are: ${knownSchemas.join(", ")}.`,
    });
    this.schema = schema;
    this.knownSchemas = knownSchemas;
  }

  static override isInstance(error: unknown): error is UnknownSchemaError {
    return TaskContextError.hasMarker(error, marker);
  }
}
