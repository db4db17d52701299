import { TaskContextError } from "./task-context-error.ts";

/** An option or argument has a value the function cannot use; the message names it and the fix. */
export class InvalidArgumentError extends TaskContextError {
  readonly argument: string;

  constructor(argument: string, message: string) {
    super("INVALID_ARGUMENT", `Invalid ${argument}: ${message}`);
    this.name = "InvalidArgumentError";
    this.argument = argument;
  }

  static override isInstance(error: unknown): error is InvalidArgumentError {
    return TaskContextError.hasCode(error, "INVALID_ARGUMENT");
  }
}
