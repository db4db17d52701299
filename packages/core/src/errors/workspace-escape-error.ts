import { TaskContextError } from "./task-context-error.ts";

/** How a path could reach a file outside the workspace. */
export type EscapeRoute = "symbolic-link" | "hard-link";

const marker = "task-context.error.WorkspaceEscapeError";
const symbol = Symbol.for(marker);

const explanations: Record<EscapeRoute, string> = {
  "symbolic-link":
    "it resolves to a location outside the workspace root (through a symbolic link). Keep workspace files as real files inside the workspace.",
  "hard-link":
    "it is a hard link (the file has more than one name), so it may be a file outside the workspace under another name. Copy the file into the workspace instead, or open the workspace with `allowHardLinks: true` if you trust every name the file has.",
};

/** A path reaches, or may reach, a file outside the workspace root; it is refused. */
export class WorkspaceEscapeError extends TaskContextError<"WORKSPACE_ESCAPE"> {
  protected readonly [symbol] = true;
  override name = "WorkspaceEscapeError";
  /** The workspace-relative path. */
  readonly path: string;
  /** How the path could leave the workspace. */
  readonly route: EscapeRoute;

  constructor({ path, route = "symbolic-link" }: { path: string; route?: EscapeRoute }) {
    super({
      code: "WORKSPACE_ESCAPE",
      message: `Refused ${JSON.stringify(path)}: ${explanations[route]}`,
    });
    this.path = path;
    this.route = route;
  }

  static override isInstance(error: unknown): error is WorkspaceEscapeError {
    return TaskContextError.hasMarker(error, marker);
  }
}
