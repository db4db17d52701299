import { TaskContextError } from "@task-context/core";

/** Every `code` the media tools add to core's (`TASK_CONTEXT_MISSING`, `FILE_NOT_FOUND`, …). */
export type MediaToolErrorCode =
  | "UNSUPPORTED_MEDIA_TYPE"
  | "FILE_TOO_LARGE"
  | "MODEL_NOT_CONFIGURED"
  | "PROVIDER_ERROR"
  | "TIMEOUT"
  | "ABORTED"
  | "UNSUPPORTED_RUNTIME"
  | "UNSUPPORTED_AI_SDK";

const marker = "task-context.error.MediaToolError";
const symbol = Symbol.for(marker);

/**
 * Base class of the media tools' own failures. A tool never throws it at the agent: it becomes
 * the `{ success: false, error, code }` result. Recognise it across bundled copies with
 * `MediaToolError.isInstance(error)`, or any task-context error with `TaskContextError.isInstance`.
 *
 * @example
 * ```ts source="../../examples/explain-errors.ts#explainErrors"
 * function isRetryable(code: MediaToolErrorCode): boolean {
 *   return code === "PROVIDER_ERROR" || code === "TIMEOUT";
 * }
 *
 * function explain(error: unknown): string {
 *   if (MediaToolError.isInstance(error))
 *     return `${error.code}${isRetryable(error.code) ? " (try again)" : ""}: ${error.message}`;
 *   if (TaskContextError.isInstance(error)) return `${error.code}: ${error.message}`;
 *   return String(error);
 * }
 * ```
 */
export class MediaToolError<
  Code extends MediaToolErrorCode = MediaToolErrorCode,
> extends TaskContextError<Code> {
  protected readonly [symbol] = true;
  override name = "MediaToolError";

  static override isInstance(error: unknown): error is MediaToolError {
    return TaskContextError.hasMarker(error, marker);
  }
}
