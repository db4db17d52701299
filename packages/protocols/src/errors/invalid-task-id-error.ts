import { TaskContextError } from "@task-context/core";

const MAX_SHOWN = 80;

const marker = "task-context.error.InvalidTaskIdError";
const symbol = Symbol.for(marker);

/**
 * A task id that cannot be a file name under `.sage/context/`: empty, with `/`, `\` or `..`, an
 * absolute path, a NUL byte, or any other character outside letters, digits, `.`, `_` and `-`.
 * Thrown before anything is read or written.
 */
export class InvalidTaskIdError extends TaskContextError<"INVALID_TASK_ID"> {
  protected readonly [symbol] = true;
  override name = "InvalidTaskIdError";
  /** The refused id. */
  readonly taskId: string;

  constructor({ taskId }: { taskId: string }) {
    const shown =
      taskId.length > MAX_SHOWN
        ? `${JSON.stringify(taskId.slice(0, MAX_SHOWN))}…`
        : JSON.stringify(taskId);
    super({
      code: "INVALID_TASK_ID",
      message: `Invalid task id ${shown}: it must start with a letter or digit and use only letters, digits, ".", "_" and "-" (at most 128 characters), because the context is written to .sage/context/{taskId}.xml. Use an id such as "story-12.task-3".`,
    });
    this.taskId = taskId;
  }

  static override isInstance(error: unknown): error is InvalidTaskIdError {
    return TaskContextError.hasMarker(error, marker);
  }
}
