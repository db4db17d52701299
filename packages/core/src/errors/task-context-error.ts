const marker = "task-context.error";
const symbol = Symbol.for(marker);

/** What every task-context error is built from. */
export interface TaskContextErrorOptions<Code extends string> {
  /** A stable string to branch on, e.g. `"TASK_CONTEXT_MISSING"`. */
  code: Code;
  /** What happened and what to do next. */
  message: string;
  /** The lower-level error this one explains, if any. */
  cause?: unknown;
}

/**
 * Base class of every error thrown by task-context packages. `code` is a stable string to branch
 * on (each package exports the union of its codes); the message says what happened and what to do
 * next.
 *
 * Each class has a static `isInstance` that recognises its errors by a `Symbol.for` marker, so it
 * also works for an error thrown by another bundled copy of the package, where `instanceof` fails.
 *
 * @example
 * ```ts source="../../examples/errors.ts#handleErrors"
 * try {
 *   return await loadTaskContext(workspace);
 * } catch (error) {
 *   if (TaskContextMissingError.isInstance(error)) {
 *     // The message starts with "CONTEXT.md not found in workspace. Before using multimodal tools
 *     // or spawning subagents, create a CONTEXT.md file …": show it to the agent.
 *     return { success: false, error: error.message };
 *   }
 *   if (TaskContextError.isInstance(error)) console.error(error.code, error.message);
 *   throw error;
 * }
 * ```
 */
export class TaskContextError<Code extends string = string> extends Error {
  protected readonly [symbol] = true;
  override name = "TaskContextError";
  readonly code: Code;

  constructor({ code, message, cause }: TaskContextErrorOptions<Code>) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
  }

  /** True for an error of any task-context package, from any bundled copy. */
  static isInstance(error: unknown): error is TaskContextError {
    return TaskContextError.hasMarker(error, marker);
  }

  /** True when `error` carries the `Symbol.for(marker)` property that a class sets. */
  protected static hasMarker(error: unknown, marker: string): boolean {
    const markerSymbol = Symbol.for(marker);
    return (
      typeof error === "object" &&
      error !== null &&
      markerSymbol in error &&
      (error as Record<symbol, unknown>)[markerSymbol] === true
    );
  }
}
