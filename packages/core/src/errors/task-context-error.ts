const marker = Symbol.for("task-context.error");

/** Every error code the core package throws. */
export type TaskContextErrorCode =
  | "TASK_CONTEXT_MISSING"
  | "INVALID_WORKSPACE_PATH"
  | "WORKSPACE_ESCAPE"
  | "NOT_A_REGULAR_FILE"
  | "FILE_NOT_FOUND"
  | "INVALID_ARGUMENT"
  | "TOOL_EXECUTION_FAILED";

/**
 * Base class of every error thrown by task-context packages. `code` is a stable string to branch
 * on; the message says what happened and what to do next.
 *
 * @example
 * ```ts
 * try {
 *   await loadTaskContext(workspace);
 * } catch (error) {
 *   if (TaskContextError.isInstance(error)) console.error(error.code, error.message);
 * }
 * ```
 */
export class TaskContextError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TaskContextError";
    this.code = code;
    Object.defineProperty(this, marker, { value: true });
  }

  /**
   * True for any task-context error, also one thrown by another bundled copy of this package
   * (where `instanceof` would fail).
   */
  static isInstance(error: unknown): error is TaskContextError {
    return (
      typeof error === "object" &&
      error !== null &&
      (error as { [marker]?: unknown })[marker] === true &&
      typeof (error as { code?: unknown }).code === "string"
    );
  }

  /** True when `error` is a task-context error with this `code`. */
  static hasCode(error: unknown, code: string): error is TaskContextError {
    return TaskContextError.isInstance(error) && error.code === code;
  }
}
