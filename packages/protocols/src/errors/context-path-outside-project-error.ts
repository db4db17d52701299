import { TaskContextError } from "@task-context/core";

const marker = "task-context.error.ContextPathOutsideProjectError";
const symbol = Symbol.for(marker);

/**
 * A path from a context block (such as `conventions.fullPath`) points outside the project root,
 * so it is not read: receivers read only inside their workspace.
 */
export class ContextPathOutsideProjectError extends TaskContextError<"CONTEXT_PATH_OUTSIDE_PROJECT"> {
  protected readonly [symbol] = true;
  override name = "ContextPathOutsideProjectError";
  /** The path as the block gave it. */
  readonly path: string;
  /** The block's `project.path`. */
  readonly projectPath: string;

  constructor({ field, path, projectPath }: { field: string; path: string; projectPath: string }) {
    super({
      code: "CONTEXT_PATH_OUTSIDE_PROJECT",
      message: `Refused ${field} ${JSON.stringify(path)}: it is outside the project root ${JSON.stringify(projectPath)}, and only files inside the project (the workspace) are read. Point ${field} at a file under project.path, such as ${JSON.stringify(joinExample(projectPath))}.`,
    });
    this.path = path;
    this.projectPath = projectPath;
  }

  static override isInstance(error: unknown): error is ContextPathOutsideProjectError {
    return TaskContextError.hasMarker(error, marker);
  }
}

function joinExample(projectPath: string): string {
  const separator = /^[A-Za-z]:\\|^\\\\/.test(projectPath) ? "\\" : "/";
  const root = projectPath.endsWith(separator) ? projectPath.slice(0, -1) : projectPath;
  return `${root}${separator}docs${separator}CONVENTIONS.md`;
}
