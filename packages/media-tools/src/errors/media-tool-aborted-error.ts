import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

const marker = "task-context.error.MediaToolAbortedError";
const symbol = Symbol.for(marker);

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
export class MediaToolAbortedError extends MediaToolError<"ABORTED"> {
  protected readonly [symbol] = true;
  override name = "MediaToolAbortedError";
  /** The tool whose call was aborted. */
  readonly tool: string;

  constructor({ tool, reason }: { tool: string; reason: unknown }) {
    const detail =
      reason instanceof Error ? `: ${reason.message}` : reason === undefined ? "" : `: ${reason}`;
    super({
      code: "ABORTED",
      message: `${tool} was aborted by the caller${detail}; nothing was written.`,
      cause: reason,
    });
    this.tool = tool;
  }

  static override isInstance(error: unknown): error is MediaToolAbortedError {
    return TaskContextError.hasMarker(error, marker);
  }
}
