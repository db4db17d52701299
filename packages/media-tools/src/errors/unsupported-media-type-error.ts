import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

const marker = "task-context.error.UnsupportedMediaTypeError";
const symbol = Symbol.for(marker);

/**
 * The file's content (its magic bytes, not its name) is not a kind the called tool understands.
 *
 * @example
 * ```ts
 * const result = await tools.understand_image.execute({ path: "talk.mp3", prompt: "?" }, options);
 * // { success: false, code: "UNSUPPORTED_MEDIA_TYPE",
 * //   error: '"talk.mp3" is audio/mpeg (detected from its content), not an image. Use understand_audio or read_media, …' }
 * ```
 */
export class UnsupportedMediaTypeError extends MediaToolError<"UNSUPPORTED_MEDIA_TYPE"> {
  protected readonly [symbol] = true;
  override name = "UnsupportedMediaTypeError";
  readonly path: string;
  /** What the content was detected as, e.g. `"application/zip"`, or `undefined` when unknown. */
  readonly detected: string | undefined;

  constructor({
    path,
    message,
    detected,
  }: {
    path: string;
    message: string;
    detected: string | undefined;
  }) {
    super({ code: "UNSUPPORTED_MEDIA_TYPE", message });
    this.path = path;
    this.detected = detected;
  }

  static override isInstance(error: unknown): error is UnsupportedMediaTypeError {
    return TaskContextError.hasMarker(error, marker);
  }
}
