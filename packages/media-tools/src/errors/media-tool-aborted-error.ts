import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

const marker = "task-context.error.MediaToolAbortedError";
const symbol = Symbol.for(marker);

/**
 * The caller aborted the tool call (the AI SDK's `abortSignal`); nothing was written. The tools
 * return it as `{ success: false, code: "ABORTED", error }`.
 *
 * @example
 * ```ts source="../../examples/aborted.ts#aborted"
 * const { generate_image } = createMediaTools({
 *   workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen." }),
 *   models: { image: openai.image("gpt-image-1") },
 * });
 * const controller = new AbortController();
 * const pending = generate_image.execute(
 *   { prompt: "A hero image." },
 *   { abortSignal: controller.signal },
 * );
 * controller.abort(new Error("the user cancelled"));
 * const result = await pending;
 * // { success: false, code: "ABORTED",
 * //   error: "generate_image was aborted by the caller: the user cancelled; nothing was written." }
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
