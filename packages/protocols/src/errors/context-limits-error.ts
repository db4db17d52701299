import { TaskContextError } from "@task-context/core";

const marker = "task-context.error.ContextLimitsError";
const symbol = Symbol.for(marker);

/**
 * `.sage/config/context-limits.yaml` is malformed YAML, too large or too deeply nested, or does
 * not match the limits schema. The message names the file, the line and column, and what to fix.
 *
 * @example
 * ```ts source="../../examples/context-limits-error.ts"
 * import { memoryWorkspace } from "@task-context/core";
 * import { ContextLimitsError, loadContextLimits } from "@task-context/protocols/sage";
 *
 * const workspace = memoryWorkspace({
 *   ".sage/config/context-limits.yaml": "defaults:\n  max_totl: 8000\n",
 * });
 * try {
 *   await loadContextLimits(workspace, "review");
 * } catch (error) {
 *   if (!ContextLimitsError.isInstance(error)) throw error;
 *   console.error(`${error.path}:${error.line}`, error.message);
 *   // ".sage/config/context-limits.yaml:2" 'Invalid context limits in .sage/config/context-limits.yaml at line 2: Unknown field "max_totl" in defaults. Allowed: max_total, max_file_content, max_prior_output. Fix the file, or delete it to use the built-in limits.'
 * }
 * ```
 */
export class ContextLimitsError extends TaskContextError<"INVALID_CONTEXT_LIMITS"> {
  protected readonly [symbol] = true;
  override name = "ContextLimitsError";
  /** The workspace path of the limits file. */
  readonly path: string;
  /** The 1-based line of the problem, when it has one. */
  readonly line: number | undefined;
  /** The 1-based column of the problem, when it has one. */
  readonly column: number | undefined;
  /** The dot-separated key path of a schema violation (`overrides.review.max_total`), if any. */
  readonly key: string | undefined;

  constructor({
    path,
    problem,
    line,
    column,
    key,
    cause,
  }: {
    path: string;
    problem: string;
    line?: number | undefined;
    column?: number | undefined;
    key?: string | undefined;
    cause?: unknown;
  }) {
    const where =
      line === undefined
        ? ""
        : ` at line ${line}${column === undefined ? "" : `, column ${column}`}`;
    super({
      code: "INVALID_CONTEXT_LIMITS",
      message: `Invalid context limits in ${path}${where}: ${problem}. Fix the file, or delete it to use the built-in limits.`,
      cause,
    });
    this.path = path;
    this.line = line;
    this.column = column;
    this.key = key;
  }

  static override isInstance(error: unknown): error is ContextLimitsError {
    return TaskContextError.hasMarker(error, marker);
  }
}
