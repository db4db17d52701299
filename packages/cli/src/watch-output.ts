import { Writable } from "node:stream";
import { systemErrorCode } from "@task-context/core/internal";
import { CliError } from "./cli-error.ts";
import type { CliIo, OutputStream } from "./cli-io.ts";

/**
 * The exit code of a command whose output's reader went away (`task-context … | head -1`): 141,
 * what a shell reports for a program ended by SIGPIPE, as `git log | head -1` is.
 */
export const CLOSED_PIPE_EXIT_CODE = 141;

/** Which stream failed, and the system's error code (`EPIPE` for a closed pipe). */
export interface OutputFailure {
  stream: "stdout" | "stderr";
  code: string | undefined;
}

/** The streams of one command run, watched for a reader that went away or a failed write. */
export interface OutputWatch {
  /**
   * Aborted (with the {@link OutputFailure} as its reason) when stdout or stderr fails: a
   * long-running command stops its work, and its connections, when it is.
   */
  readonly closed: AbortSignal;
  /**
   * Waits until what was written is flushed or has failed, stops watching, and resolves to the
   * first failure, if any. A stream that failed stays watched: its error events are not rethrown.
   */
  settle(): Promise<OutputFailure | undefined>;
}

/**
 * Watches `io.stdout` and `io.stderr` for the duration of one command: a write to a pipe whose
 * reader has gone (EPIPE), or any other failed write, aborts {@link OutputWatch.closed} instead
 * of crashing the process with an unhandled `error` event. Streams without events (a test's
 * recorder) are not watched.
 */
export function watchOutput(io: CliIo): OutputWatch {
  const controller = new AbortController();
  const watched: Array<{ stream: OutputStream; listener: (error: Error) => void }> = [];
  let failure: OutputFailure | undefined;
  const fail = (stream: OutputFailure["stream"], error: unknown) => {
    failure ??= { stream, code: systemErrorCode(error) };
    if (!controller.signal.aborted) controller.abort(failure);
  };
  for (const name of ["stdout", "stderr"] as const) {
    const stream = io[name];
    if (typeof stream.on !== "function") continue;
    const listener = (error: Error) => fail(name, error);
    stream.on("error", listener);
    watched.push({ stream, listener });
  }

  /** Resolves once everything written to `stream` before has been flushed, or failed. */
  const flushed = (name: OutputFailure["stream"], stream: OutputStream) =>
    new Promise<void>((resolve) => {
      if (!(stream instanceof Writable) || stream.destroyed || !stream.writable) {
        resolve();
        return;
      }
      stream.write("", (error) => {
        if (error) fail(name, error);
        resolve();
      });
    });

  return {
    closed: controller.signal,
    async settle() {
      await flushed("stdout", io.stdout);
      await flushed("stderr", io.stderr);
      if (failure === undefined) {
        for (const { stream, listener } of watched) stream.off?.("error", listener);
      }
      return failure;
    },
  };
}

/** The codes of a write whose reader went away: a closed pipe, a socket its peer closed. */
const READER_GONE = new Set(["EPIPE", "ECONNRESET"]);

/**
 * The error to report for `failure`, or undefined when the reader went away (a closed pipe), which
 * ends quietly with {@link CLOSED_PIPE_EXIT_CODE}.
 */
export function outputFailedError(failure: OutputFailure): CliError | undefined {
  if (failure.code !== undefined && READER_GONE.has(failure.code)) return undefined;
  return new CliError({
    code: "CLI_OUTPUT_FAILED",
    message: `cannot write to ${failure.stream}${failure.code === undefined ? "" : ` (${failure.code})`}`,
    hint: "check where the output goes: a full disk, a file or terminal that was closed",
  });
}
