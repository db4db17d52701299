import { CONTEXT_MISSING_MESSAGE } from "../constants.ts";
import { TaskContextError } from "./task-context-error.ts";

/** Why CONTEXT.md could not be delivered. */
export type TaskContextMissingReason =
  | "not-found"
  | "empty"
  | "not-a-regular-file"
  /** The limits leave nothing of it: its first grapheme cluster or token is larger than they are. */
  | "nothing-fits";

const details: Record<TaskContextMissingReason, string> = {
  "not-found": "There is no CONTEXT.md at the workspace root.",
  empty: "CONTEXT.md exists but is empty (or holds only whitespace).",
  "not-a-regular-file":
    "CONTEXT.md exists but is not a regular file (a directory, a symbolic link, a FIFO or a device); write it as a plain file.",
  "nothing-fits":
    "CONTEXT.md exists, but nothing of it fits the configured limits: its first character or token is larger than maxChars or maxTokens allow, or more whitespace than the limits read comes before its text. Start it with ordinary text, or raise the limits.",
};

const marker = "task-context.error.TaskContextMissingError";
const symbol = Symbol.for(marker);

/**
 * CONTEXT.md is required but cannot be delivered: missing, empty, not a regular file, or cut to
 * nothing by the limits. The message starts with the guiding text ({@link CONTEXT_MISSING_MESSAGE})
 * and then names the case, so an agent that reads it knows what to do next.
 */
export class TaskContextMissingError extends TaskContextError<"TASK_CONTEXT_MISSING"> {
  protected readonly [symbol] = true;
  override name = "TaskContextMissingError";
  /** Which case it is. */
  readonly reason: TaskContextMissingReason;

  constructor({ reason, cause }: { reason: TaskContextMissingReason; cause?: unknown }) {
    super({
      code: "TASK_CONTEXT_MISSING",
      message: `${CONTEXT_MISSING_MESSAGE}\n${details[reason]}`,
      cause,
    });
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is TaskContextMissingError {
    return TaskContextError.hasMarker(error, marker);
  }
}
