import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

/**
 * The caller aborted the tool call (the AI SDK's `abortSignal`); nothing was written.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const pending = generateText({ model, tools, prompt, abortSignal: controller.signal });
 * controller.abort(); // a running media tool returns { success: false, code: "ABORTED", … }
 * ```
 */
export class AbortedError extends MediaToolError {
  readonly tool: string;

  constructor(tool: string, reason: unknown) {
    const detail =
      reason instanceof Error ? `: ${reason.message}` : reason === undefined ? "" : `: ${reason}`;
    super("ABORTED", `${tool} was aborted by the caller${detail}; nothing was written.`, {
      cause: reason,
    });
    this.name = "AbortedError";
    this.tool = tool;
  }

  static override isInstance(error: unknown): error is AbortedError {
    return TaskContextError.hasCode(error, "ABORTED");
  }
}
