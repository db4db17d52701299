import { TaskContextError } from "./task-context-error.ts";

/** A path resolved (through a symbolic link or a swapped directory) to a place outside the workspace root. */
export class WorkspaceEscapeError extends TaskContextError {
  readonly path: string;

  constructor(path: string) {
    super(
      "WORKSPACE_ESCAPE",
      `Refused ${JSON.stringify(path)}: it resolves to a location outside the workspace root (through a symbolic link). Keep workspace files as real files inside the workspace.`,
    );
    this.name = "WorkspaceEscapeError";
    this.path = path;
  }

  static override isInstance(error: unknown): error is WorkspaceEscapeError {
    return TaskContextError.hasCode(error, "WORKSPACE_ESCAPE");
  }
}
