import { TaskContextError } from "@task-context/core";

const marker = "task-context.error.SubagentWorkspaceExistsError";
const symbol = Symbol.for(marker);

/**
 * A subagent's directory (`{workspacesRoot}/{id}`) already exists. The spawner never reuses or
 * deletes a directory it did not create, so that no earlier work or user file is lost.
 *
 * `spawnSubagents` throws it before anything starts when it finds such directories; a directory
 * that appears later, between that check and the subagent's start, makes only that subagent's
 * result a `"failure"` with this message.
 *
 * @example
 * ```ts source="../../examples/spawn-errors.ts#spawnErrors"
 * try {
 *   await spawnSubagents("/srv/agents/run-42", [{ id: "a", prompt: "Do a." }], {
 *     runner,
 *     workspacesRoot: "/srv/agents/run-42/subagents",
 *   });
 * } catch (error) {
 *   if (SubagentWorkspaceExistsError.isInstance(error)) console.error("reused ids:", error.paths);
 *   else if (SubagentSetupError.isInstance(error)) console.error(error.systemCode, error.message);
 *   else throw error;
 * }
 * ```
 */
export class SubagentWorkspaceExistsError extends TaskContextError<"SUBAGENT_WORKSPACE_EXISTS"> {
  protected readonly [symbol] = true;
  override name = "SubagentWorkspaceExistsError";
  /** The directories that already exist. */
  readonly paths: readonly string[];

  constructor({ paths }: { paths: readonly string[] }) {
    const shown = paths
      .slice(0, 5)
      .map((path) => JSON.stringify(path))
      .join(", ");
    const more = paths.length > 5 ? ` and ${paths.length - 5} more` : "";
    super({
      code: "SUBAGENT_WORKSPACE_EXISTS",
      message: `Subagent workspace ${paths.length === 1 ? "directory" : "directories"} already ${paths.length === 1 ? "exists" : "exist"}: ${shown}${more}. Nothing was started. Use new task ids or another workspacesRoot, or remove the old directories yourself; the spawner never reuses or deletes them.`,
    });
    this.paths = [...paths];
  }

  static override isInstance(error: unknown): error is SubagentWorkspaceExistsError {
    return TaskContextError.hasMarker(error, marker);
  }
}
