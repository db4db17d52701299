import { TaskContextError } from "@task-context/core";

/**
 * `.sage/config/context-limits.yaml` is malformed YAML, too large or too deeply nested, or does
 * not match the limits schema. The message names the file, the line and column, and what to fix.
 *
 * @example
 * ```ts
 * try {
 *   await loadContextLimits(workspace, "review");
 * } catch (error) {
 *   if (ContextLimitsError.isInstance(error)) console.error(`${error.path}:${error.line}`, error.message);
 * }
 * ```
 */
export class ContextLimitsError extends TaskContextError {
  /** The workspace path of the limits file. */
  readonly path: string;
  /** The 1-based line of the problem, when it has one. */
  readonly line: number | undefined;
  /** The 1-based column of the problem, when it has one. */
  readonly column: number | undefined;
  /** The dot-separated key path of a schema violation (`overrides.review.max_total`), if any. */
  readonly key: string | undefined;

  constructor(
    path: string,
    problem: string,
    position: { line?: number; column?: number; key?: string } = {},
    options?: { cause?: unknown },
  ) {
    const where =
      position.line === undefined
        ? ""
        : ` at line ${position.line}${position.column === undefined ? "" : `, column ${position.column}`}`;
    super(
      "INVALID_CONTEXT_LIMITS",
      `Invalid context limits in ${path}${where}: ${problem}. Fix the file, or delete it to use the built-in limits.`,
      options,
    );
    this.name = "ContextLimitsError";
    this.path = path;
    this.line = position.line;
    this.column = position.column;
    this.key = position.key;
  }

  static override isInstance(error: unknown): error is ContextLimitsError {
    return TaskContextError.hasCode(error, "INVALID_CONTEXT_LIMITS");
  }
}
