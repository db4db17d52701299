import { CONTEXT_MISSING_MESSAGE } from "../constants.ts";
import { TaskContextError } from "./task-context-error.ts";

/** Why CONTEXT.md could not be delivered. */
export type TaskContextMissingReason = "not-found" | "empty" | "not-a-regular-file";

const details: Record<TaskContextMissingReason, string> = {
  "not-found": "There is no CONTEXT.md at the workspace root.",
  empty: "CONTEXT.md exists but is empty (or holds only whitespace).",
  "not-a-regular-file":
    "CONTEXT.md exists but is not a regular file (a directory, a symbolic link, a FIFO or a device); write it as a plain file.",
};

/**
 * CONTEXT.md is required but missing, empty or not a regular file. The message starts with the
 * spec's guiding text and then names the case.
 */
export class TaskContextMissingError extends TaskContextError {
  readonly reason: TaskContextMissingReason;

  constructor(reason: TaskContextMissingReason, options?: { cause?: unknown }) {
    super("TASK_CONTEXT_MISSING", `${CONTEXT_MISSING_MESSAGE}\n${details[reason]}`, options);
    this.name = "TaskContextMissingError";
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is TaskContextMissingError {
    return TaskContextError.hasCode(error, "TASK_CONTEXT_MISSING");
  }
}
