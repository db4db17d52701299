import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

const marker = "task-context.error.FileTooLargeError";
const symbol = Symbol.for(marker);

/**
 * A media file is larger than the limit for its kind; it was not read in full nor sent anywhere.
 * The tools return it as `{ success: false, code: "FILE_TOO_LARGE", error }`.
 *
 * @example
 * ```ts source="../../examples/file-too-large.ts#fileTooLarge"
 * const png = new Uint8Array(3 * 1024 * 1024);
 * png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
 * const { read_media } = createMediaTools({
 *   workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen.", "big.png": png }),
 *   models: { understanding: openai("gpt-5-mini") },
 *   limits: { image: 2 * 1024 * 1024 },
 * });
 * const result = await read_media.execute({ path: "big.png", prompt: "What is shown?" });
 * // { success: false, code: "FILE_TOO_LARGE",
 * //   error: '"big.png" is 3 MiB, over the 2 MiB limit for image files. Use a smaller or compressed file, or raise `limits.image` in createMediaTools.' }
 * ```
 */
export class FileTooLargeError extends MediaToolError<"FILE_TOO_LARGE"> {
  protected readonly [symbol] = true;
  override name = "FileTooLargeError";
  readonly path: string;
  readonly size: number;
  readonly limit: number;

  constructor({
    path,
    kind,
    size,
    limit,
  }: {
    path: string;
    kind: string;
    size: number;
    limit: number;
  }) {
    super({
      code: "FILE_TOO_LARGE",
      message: `${JSON.stringify(path)} is ${formatBytes(size)}, over the ${formatBytes(limit)} limit for ${kind} files. Use a smaller or compressed file, or raise \`limits.${kind}\` in createMediaTools.`,
    });
    this.path = path;
    this.size = size;
    this.limit = limit;
  }

  static override isInstance(error: unknown): error is FileTooLargeError {
    return TaskContextError.hasMarker(error, marker);
  }
}

/** `20 MiB`, `512 KiB`, `12 bytes`: sizes as people read them, exact to one decimal. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${trim(bytes / (1024 * 1024))} MiB`;
  if (bytes >= 1024) return `${trim(bytes / 1024)} KiB`;
  return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
}

function trim(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
