import { TaskContextError, type Workspace, WorkspaceIoError } from "@task-context/core";
import { parseWorkspacePath, systemErrorCode } from "@task-context/core/internal";

async function guarded<T>(
  run: () => Promise<T>,
  path: string,
  operation: "read" | "write",
): Promise<T> {
  // Core's workspaces check paths themselves; one of the user's own might not, so a path that
  // leaves the workspace is refused here first (INVALID_WORKSPACE_PATH).
  parseWorkspacePath(path);
  try {
    return await run();
  } catch (error) {
    if (TaskContextError.isInstance(error)) throw error;
    // A workspace of the user's own may throw raw errors; their messages can name absolute paths.
    throw new WorkspaceIoError({ path, operation, systemCode: systemErrorCode(error) });
  }
}

/**
 * The workspace as the tools and the middleware use it. Core's workspaces already refuse paths
 * that leave the workspace and throw only typed errors; for any other workspace, such paths are
 * refused before it is called, and anything else it throws becomes core's
 * {@link WorkspaceIoError} (code `WORKSPACE_IO_ERROR`), which names the workspace path and the
 * system code only.
 */
export function guardWorkspace(workspace: Workspace): Workspace {
  return {
    get description() {
      return workspace.description;
    },
    readFile: (path, options) => guarded(() => workspace.readFile(path, options), path, "read"),
    writeFile: (path, data) => guarded(() => workspace.writeFile(path, data), path, "write"),
  };
}
