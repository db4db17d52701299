import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

const marker = "task-context.error.MediaToolTimeoutError";
const symbol = Symbol.for(marker);

/**
 * The tool call took longer than its `timeoutMs` (or the caller's own timeout signal fired, such
 * as the AI SDK's `timeout: { toolMs }`); the external call was aborted.
 *
 * @example
 * ```ts
 * const tools = createMediaTools({ workspace, models, timeoutMs: { generate_video: 20 * 60_000 } });
 * // a slower call returns { success: false, code: "TIMEOUT", error: "generate_video timed out after 1200000 ms …" }
 * ```
 */
export class MediaToolTimeoutError extends MediaToolError<"TIMEOUT"> {
  protected readonly [symbol] = true;
  override name = "MediaToolTimeoutError";
  /** The tool that timed out. */
  readonly tool: string;
  /** The limit that was hit, or `undefined` when it was the caller's timeout signal. */
  readonly timeoutMs: number | undefined;

  constructor({ tool, timeoutMs }: { tool: string; timeoutMs: number | undefined }) {
    super({
      code: "TIMEOUT",
      message:
        timeoutMs === undefined
          ? `${tool} timed out (the caller's timeout signal fired) and was aborted; nothing was written. Try again, use a smaller input, or give the tool more time.`
          : `${tool} timed out after ${timeoutMs} ms and was aborted; nothing was written. Try again, use a smaller input, or raise \`timeoutMs\` in createMediaTools.`,
    });
    this.tool = tool;
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(error: unknown): error is MediaToolTimeoutError {
    return TaskContextError.hasMarker(error, marker);
  }
}
