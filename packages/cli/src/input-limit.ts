import { CliError } from "./cli-error.ts";

/**
 * The most bytes the command reads from one input (a file, a FIFO, stdin, CONTEXT.md): 16 MiB.
 * A context file is kilobytes; the limit keeps a wrong argument (`/dev/zero`, a disk image, an
 * endless pipe) from eating memory. One byte more is read to tell that an input is over it.
 */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * The error for an input over {@link MAX_INPUT_BYTES}: its size when known (a regular file), or
 * that reading stopped at the limit (a pipe, a FIFO, stdin).
 */
export function inputTooLarge(name: string, size?: number): CliError {
  const over =
    size === undefined
      ? `reading stopped after ${MAX_INPUT_BYTES} bytes`
      : `it has ${size} bytes, at most ${MAX_INPUT_BYTES} are read`;
  return new CliError({
    code: "CLI_INPUT_TOO_LARGE",
    message: `${name} is over the 16 MiB input limit: ${over}`,
    hint: "pass the file you meant: context files, Sage XML, work items and run bodies are kilobytes",
  });
}

/** Collects the chunks of one input, and throws {@link inputTooLarge} once they pass the limit. */
export class BoundedBytes {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  private readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  /** Adds a chunk; throws when the input is now over the limit (nothing more need be read). */
  add(chunk: Uint8Array): void {
    this.size += chunk.length;
    if (this.size > MAX_INPUT_BYTES) throw inputTooLarge(this.name);
    this.chunks.push(chunk);
  }

  /** Everything added, in one array. */
  bytes(): Uint8Array {
    return Buffer.concat(this.chunks, this.size);
  }
}
