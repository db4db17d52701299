import { createColors } from "picocolors";

/** A writable text stream, as `process.stdout` is one. */
export interface OutputStream {
  write(text: string): unknown;
  /** True when the stream is a terminal: colour is used only then. */
  isTTY?: boolean;
  /**
   * Where the stream reports a failed write (`EPIPE` when the reader of a pipe went away): the
   * command then stops quietly instead of crashing. Streams without it are not watched.
   */
  on?(event: "error", listener: (error: Error) => void): unknown;
  /** Removes a listener added with `on`. */
  off?(event: "error", listener: (error: Error) => void): unknown;
}

/** Where the command reads and writes: the process's streams, or a test's. */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  /** Read in full where a file argument is `-`. */
  stdin: AsyncIterable<Uint8Array | string>;
  /** The environment (`NO_COLOR`, `FORCE_COLOR`, `TASK_CONTEXT_URL`, …). */
  env: Readonly<Record<string, string | undefined>>;
  /** Relative paths are resolved against it. */
  cwd: string;
  /** Receives SIGINT/SIGTERM handlers for `serve` and `run events`; default: none. */
  onSignal?: (handler: (signal: string) => void) => () => void;
}

/** The colour functions picocolors makes, on or off. */
export type Colors = ReturnType<typeof createColors>;

/**
 * Whether to colour what goes to `stream`: only on a terminal, never when `NO_COLOR` is set to a
 * non-empty value; `FORCE_COLOR` (not `0`) turns it on elsewhere. `CI` alone never does, so that
 * output in a pipe is the same everywhere.
 */
export function colorEnabled(stream: OutputStream, env: CliIo["env"]): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0") {
    return true;
  }
  return stream.isTTY === true;
}

/** picocolors' functions for `stream`, following {@link colorEnabled}. */
export function colorsFor(stream: OutputStream, env: CliIo["env"]): Colors {
  return createColors(colorEnabled(stream, env));
}
