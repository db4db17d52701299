import { TaskContextError } from "@task-context/core";

/**
 * What the spawner was doing when the file system refused: preparing the workspaces root,
 * creating a subagent's directory, writing its copy of CONTEXT.md, or writing its Sage context
 * file.
 */
export type SubagentSetupStep = "workspaces-root" | "directory" | "context-copy" | "context-file";

/** What went wrong and what the caller can do about it, for an operating-system error code. */
function explain(systemCode: string | undefined): string {
  switch (systemCode) {
    case "ENAMETOOLONG":
      return "the path is longer than the file system allows (ENAMETOOLONG). Use a shorter workspacesRoot or shorter task ids.";
    case "ENOTDIR":
      return "a part of the path is a file, not a directory (ENOTDIR). Use a workspacesRoot whose every existing part is a directory.";
    case "ENOSPC":
    case "EDQUOT":
      return `the disk is full (${systemCode}). Free some space, or use a workspacesRoot on another disk.`;
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return `this process may not write there (${systemCode}). Use a workspacesRoot this process can write to.`;
    default:
      return `the file system refused${systemCode === undefined ? "" : ` (${systemCode})`}. Check that workspacesRoot is a writable directory with free space.`;
  }
}

function describeStep(step: SubagentSetupStep, taskId: string | undefined): string {
  const subagent = `subagent ${JSON.stringify(taskId ?? "")}`;
  switch (step) {
    case "workspaces-root":
      return "Could not prepare the directory that holds the subagents' directories (workspacesRoot, or a new temporary directory when none is given)";
    case "directory":
      return `Could not create the directory of ${subagent}`;
    case "context-copy":
      return `Could not write the copy of CONTEXT.md for ${subagent}`;
    case "context-file":
      return `Could not write .sage/context/${taskId ?? ""}.xml for ${subagent}`;
  }
}

const marker = "task-context.error.SubagentSetupError";
const symbol = Symbol.for(marker);

/**
 * The file system refused to set up a subagent (`ENAMETOOLONG`, `EACCES`, `ENOSPC`, `ENOTDIR`…).
 * The message says which step failed and what to do; it names the task id and paths relative to
 * the subagent's directory, never the operating system's raw error or an absolute path.
 *
 * `spawnSubagents` throws it before anything starts when the workspaces root cannot be prepared
 * (`step: "workspaces-root"`). Once subagents run, a step that fails for one subagent makes only
 * that subagent's result a `"failure"` whose `summary` is this message.
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
export class SubagentSetupError extends TaskContextError<"SUBAGENT_SETUP_FAILED"> {
  protected readonly [symbol] = true;
  override name = "SubagentSetupError";
  /** The step that failed. */
  readonly step: SubagentSetupStep;
  /** The subagent's task id; undefined for `step: "workspaces-root"`. */
  readonly taskId: string | undefined;
  /** The operating system's error code, e.g. `"ENAMETOOLONG"`, when it gave one. */
  readonly systemCode: string | undefined;

  constructor({
    step,
    taskId,
    systemCode,
  }: {
    step: SubagentSetupStep;
    taskId?: string | undefined;
    systemCode: string | undefined;
  }) {
    const consequence = step === "workspaces-root" ? "nothing was started" : "it was not started";
    super({
      code: "SUBAGENT_SETUP_FAILED",
      message: `${describeStep(step, taskId)}, so ${consequence}: ${explain(systemCode)}`,
    });
    this.step = step;
    this.taskId = taskId;
    this.systemCode = systemCode;
  }

  static override isInstance(error: unknown): error is SubagentSetupError {
    return TaskContextError.hasMarker(error, marker);
  }
}
