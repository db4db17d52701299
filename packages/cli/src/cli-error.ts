import { TaskContextError } from "@task-context/core";

const marker = "task-context.error.CliError";
const symbol = Symbol.for(marker);

/** Every `code` a {@link CliError} carries. */
export type CliErrorCode =
  /** The command line is wrong: an unknown command or option, a missing or bad argument. */
  | "CLI_USAGE"
  /** A file (or stdin) could not be read: missing, not a file, or refused by the workspace rules. */
  | "CLI_UNREADABLE_INPUT"
  /** A file (or stdin) is larger than the input limit (16 MiB); reading stopped there. */
  | "CLI_INPUT_TOO_LARGE"
  /** A file would be overwritten, or could not be written. */
  | "CLI_WRITE_REFUSED"
  /** The command needs a newer Node than the one running it. */
  | "CLI_NODE_TOO_OLD"
  /** The command needs a package that is not installed (`serve` needs `@task-context/server`). */
  | "CLI_PACKAGE_MISSING"
  /** The delivery service could not be reached or refused the request. */
  | "CLI_SERVICE"
  /** `eval`: the spec is not valid (the message names the field). */
  | "CLI_EVAL_SPEC_INVALID"
  /** `eval`: the run stopped at the spec's budget before every trial was recorded. */
  | "CLI_EVAL_STOPPED"
  /** Stdout or stderr could not be written (other than a closed pipe, which ends quietly). */
  | "CLI_OUTPUT_FAILED";

/** The codes that exit 2 unless told otherwise: the command line, or its input, is at fault. */
const EXIT_2_CODES: ReadonlySet<CliErrorCode> = new Set([
  "CLI_USAGE",
  "CLI_UNREADABLE_INPUT",
  "CLI_INPUT_TOO_LARGE",
  "CLI_EVAL_SPEC_INVALID",
]);

/**
 * A failure the `task-context` command reports as one line (`task-context: …`) and a hint
 * (`hint: …`), with the exit code it ends with: 2 for usage errors and input that could not be
 * read (or is over the limit), 1 for the rest.
 */
export class CliError extends TaskContextError<CliErrorCode> {
  protected readonly [symbol] = true;
  override name = "CliError";
  /** What to do about it, printed after `hint: `. */
  readonly hint: string;
  /** The process's exit code. */
  readonly exitCode: number;

  constructor({
    code,
    message,
    hint,
    exitCode,
    cause,
  }: {
    code: CliErrorCode;
    message: string;
    hint: string;
    exitCode?: number;
    cause?: unknown;
  }) {
    super({ code, message, cause });
    this.hint = hint;
    this.exitCode = exitCode ?? (EXIT_2_CODES.has(code) ? 2 : 1);
  }

  /** True for a {@link CliError} from any bundled copy. */
  static override isInstance(error: unknown): error is CliError {
    return TaskContextError.hasMarker(error, marker);
  }
}

/** A usage error (exit 2) with its hint. */
export function usageError(message: string, hint: string): CliError {
  return new CliError({ code: "CLI_USAGE", message, hint });
}
