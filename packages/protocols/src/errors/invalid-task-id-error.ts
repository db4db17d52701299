import { TaskContextError } from "@task-context/core";

const MAX_SHOWN = 80;

/**
 * A task id that cannot be a file name under `.sage/context/`: empty, with `/`, `\` or `..`, an
 * absolute path, a NUL byte, or any other character outside letters, digits, `.`, `_` and `-`.
 * Thrown before anything is read or written.
 */
export class InvalidTaskIdError extends TaskContextError {
  /** The refused id. */
  readonly taskId: string;

  constructor(taskId: string) {
    const shown =
      taskId.length > MAX_SHOWN
        ? `${JSON.stringify(taskId.slice(0, MAX_SHOWN))}…`
        : JSON.stringify(taskId);
    super(
      "INVALID_TASK_ID",
      `Invalid task id ${shown}: it must start with a letter or digit and use only letters, digits, ".", "_" and "-" (at most 128 characters), because the context is written to .sage/context/{taskId}.xml. Use an id such as "story-12.task-3".`,
    );
    this.name = "InvalidTaskIdError";
    this.taskId = taskId;
  }

  static override isInstance(error: unknown): error is InvalidTaskIdError {
    return TaskContextError.hasCode(error, "INVALID_TASK_ID");
  }
}
