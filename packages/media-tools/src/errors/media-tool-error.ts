import { TaskContextError } from "@task-context/core";

/** Every error code the media tools add to core's (`TASK_CONTEXT_MISSING`, `FILE_NOT_FOUND`, …). */
export type MediaToolErrorCode =
  | "UNSUPPORTED_MEDIA_TYPE"
  | "FILE_TOO_LARGE"
  | "MODEL_NOT_CONFIGURED"
  | "PROVIDER_ERROR"
  | "TIMEOUT"
  | "ABORTED";

/**
 * Base class of the media tools' own failures. A tool never throws it at the agent: it becomes
 * the `{ success: false, error, code }` result. Recognise it across bundled copies with
 * `MediaToolError.isInstance(error)`, or any task-context error with `TaskContextError.isInstance`.
 *
 * @example
 * ```ts
 * try {
 *   await generateText({ model: wrapLanguageModel({ model, middleware }), prompt });
 * } catch (error) {
 *   if (TaskContextError.isInstance(error)) console.error(error.code, error.message);
 * }
 * ```
 */
export class MediaToolError extends TaskContextError {
  declare readonly code: MediaToolErrorCode;

  constructor(code: MediaToolErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "MediaToolError";
  }

  static override isInstance(error: unknown): error is MediaToolError {
    return (
      TaskContextError.isInstance(error) &&
      (MEDIA_TOOL_ERROR_CODES as readonly string[]).includes(error.code)
    );
  }
}

/** The codes {@link MediaToolError.isInstance} recognises. */
export const MEDIA_TOOL_ERROR_CODES = [
  "UNSUPPORTED_MEDIA_TYPE",
  "FILE_TOO_LARGE",
  "MODEL_NOT_CONFIGURED",
  "PROVIDER_ERROR",
  "TIMEOUT",
  "ABORTED",
] as const satisfies readonly MediaToolErrorCode[];
