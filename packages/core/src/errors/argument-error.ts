import { TaskContextError } from "./task-context-error.ts";

const marker = "task-context.error.ArgumentError";
const symbol = Symbol.for(marker);

/**
 * An argument or option has a value the function cannot use (wrong type, empty, out of range).
 * Thrown before anything is read, written or sent; the message names the argument and the fix.
 */
export class ArgumentError extends TaskContextError<"INVALID_ARGUMENT"> {
  protected readonly [symbol] = true;
  override name = "ArgumentError";
  /** The argument or option, e.g. `"maxChars"` or `"options.timeoutMs"`. */
  readonly argument: string;

  constructor({ argument, message }: { argument: string; message: string }) {
    super({ code: "INVALID_ARGUMENT", message: `Invalid ${argument}: ${message}` });
    this.argument = argument;
  }

  static override isInstance(error: unknown): error is ArgumentError {
    return TaskContextError.hasMarker(error, marker);
  }
}
