import { TaskContextError } from "./task-context-error.ts";

/**
 * A workspace path was refused before the file system was touched: empty, absolute, with `..`,
 * a NUL byte or a backslash.
 */
export class WorkspacePathError extends TaskContextError {
  readonly path: string;

  constructor(path: string, problem: string) {
    super(
      "INVALID_WORKSPACE_PATH",
      `Invalid workspace path ${JSON.stringify(path)}: ${problem}. Use a relative path with "/" separators inside the workspace, such as "docs/notes.md".`,
    );
    this.name = "WorkspacePathError";
    this.path = path;
  }

  static override isInstance(error: unknown): error is WorkspacePathError {
    return TaskContextError.hasCode(error, "INVALID_WORKSPACE_PATH");
  }
}
