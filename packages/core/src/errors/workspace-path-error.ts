import { TaskContextError } from "./task-context-error.ts";

const marker = "task-context.error.WorkspacePathError";
const symbol = Symbol.for(marker);

/**
 * A workspace path was refused before the file system was touched: empty, absolute, with `..`,
 * a NUL byte or a backslash.
 */
export class WorkspacePathError extends TaskContextError<"INVALID_WORKSPACE_PATH"> {
  protected readonly [symbol] = true;
  override name = "WorkspacePathError";
  /** The path as given. */
  readonly path: string;

  constructor({ path, problem }: { path: string; problem: string }) {
    super({
      code: "INVALID_WORKSPACE_PATH",
      message: `Invalid workspace path ${JSON.stringify(path)}: ${problem}. Use a relative path with "/" separators inside the workspace, such as "docs/notes.md".`,
    });
    this.path = path;
  }

  static override isInstance(error: unknown): error is WorkspacePathError {
    return TaskContextError.hasMarker(error, marker);
  }
}
