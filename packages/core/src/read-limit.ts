import { InvalidArgumentError } from "./errors/invalid-argument-error.ts";
import type { ReadFileOptions } from "./workspace.ts";

/** How many bytes a read of a file of `size` bytes may return under `options.maxBytes`. */
export function readLimit(options: ReadFileOptions, size: number): number {
  const { maxBytes } = options;
  if (maxBytes === undefined) return size;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new InvalidArgumentError(
      "maxBytes",
      `expected a whole number of bytes ≥ 0, got ${String(maxBytes)}.`,
    );
  }
  return Math.min(maxBytes, size);
}
