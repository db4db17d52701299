import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

/**
 * A media file is larger than the limit for its kind; it was not read in full nor sent anywhere.
 *
 * @example
 * ```ts
 * new FileTooLargeError("big.png", "image", 3 * 1024 * 1024, 2 * 1024 * 1024).message;
 * // '"big.png" is 3 MiB, over the 2 MiB limit for image files. Use a smaller or compressed file, or raise `limits.image` in createMediaTools.'
 * ```
 */
export class FileTooLargeError extends MediaToolError {
  readonly path: string;
  readonly size: number;
  readonly limit: number;

  constructor(path: string, kind: string, size: number, limit: number) {
    super(
      "FILE_TOO_LARGE",
      `${JSON.stringify(path)} is ${formatBytes(size)}, over the ${formatBytes(limit)} limit for ${kind} files. Use a smaller or compressed file, or raise \`limits.${kind}\` in createMediaTools.`,
    );
    this.name = "FileTooLargeError";
    this.path = path;
    this.size = size;
    this.limit = limit;
  }

  static override isInstance(error: unknown): error is FileTooLargeError {
    return TaskContextError.hasCode(error, "FILE_TOO_LARGE");
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
