import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

const marker = "task-context.error.MediaToolTimeoutError";
const symbol = Symbol.for(marker);

/**
 * The tool call took longer than its `timeoutMs` (or the caller's own timeout signal fired, such
 * as the AI SDK's `timeout: { toolMs }`); the external call was aborted and nothing was written.
 * The tools return it as `{ success: false, code: "TIMEOUT", error }`.
 *
 * @example
 * ```ts source="../../examples/timeout.ts#timeout"
 * const { generate_image } = createMediaTools({
 *   workspace: nodeWorkspace("/srv/agents/run-42"),
 *   models: { image: openai.image("gpt-image-1") },
 *   timeoutMs: { generate_image: 60_000 },
 * });
 * const result = await generate_image.execute({ prompt: "A detailed poster." });
 * // After a minute without an answer: { success: false, code: "TIMEOUT",
 * //   error: "generate_image timed out after 60000 ms and was aborted; nothing was written. Try again, use a smaller input, or raise `timeoutMs` in createMediaTools." }
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
