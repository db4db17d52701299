import { requireWholeNumber } from "./arguments.ts";
import type { ReadFileOptions } from "./workspace.ts";

/** How many bytes a read of a file of `size` bytes may return under `options.maxBytes`. */
export function readLimit(options: ReadFileOptions, size: number): number {
  const { maxBytes } = options;
  if (maxBytes === undefined) return size;
  return Math.min(requireWholeNumber("maxBytes", maxBytes, 0), size);
}
